import { judgeExitCode, SERVICE_RECIPES } from '../../../lib/runtime/upgrade';

describe('judgeExitCode', () => {
  test("Keystone's db_sync --check: 'expand pending' passes before the upgrade and fails after it", () => {
    // GIVEN the pre- and post-check of Keystone's recipe
    const [pre, post] = [SERVICE_RECIPES.keystone.preChecks[1], SERVICE_RECIPES.keystone.postChecks[0]];
    // WHEN both report exit code 2 (expand pending)
    // THEN the pre-check passes (the new release adds migrations), the post-check stops with why
    expect(judgeExitCode(pre, 2)).toEqual({ verdict: 'pass' });
    expect(judgeExitCode(post, 2)).toEqual({
      verdict: 'fail',
      reason:
        "`keystone-manage db_sync --check` exited 2: expand is pending; read the Job's log, fix the cause, delete the Job, then deploy again (the plan resumes at this phase)",
    });
  });

  test("Nova's online data migrations run again while rows are left and stop on errors", () => {
    // GIVEN nova's ODM command
    const odm = SERVICE_RECIPES.nova.onlineDataMigrations[0];
    // WHEN / THEN 1 repeats, 0 passes, 2 fails
    expect(judgeExitCode(odm, 1)).toEqual({ verdict: 'repeat', meaning: 'migrations left: run again' });
    expect(judgeExitCode(odm, 0)).toEqual({ verdict: 'pass' });
    expect(judgeExitCode(odm, 2)).toMatchObject({ verdict: 'fail' });
  });

  test('a status check accepts a warning before the upgrade, and an undocumented code is named as such', () => {
    // GIVEN nova-status upgrade check WHEN it warns (1) or exits 42 THEN pass, then fail with the reason
    const check = SERVICE_RECIPES.nova.preChecks[0];
    expect(judgeExitCode(check, 1)).toEqual({ verdict: 'pass' });
    expect(judgeExitCode(check, 42)).toMatchObject({
      verdict: 'fail',
      reason: expect.stringContaining('exited 42: an exit code upstream does not document'),
    });
  });
});
