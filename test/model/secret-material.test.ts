import { isPasswordName, urlsWithPassword } from '../../lib/model';
import { osloRenderProblems } from '../../constructs/openstack-kit/oslo-config';

describe('secret material in rendered values', () => {
  test.each([
    ['rabbit://nova:s3cret@mq:5672/nova', ['rabbit://nova:****@']],
    ['redis://:s3cret@redis:6379', ['redis://:****@']],
    ['a=mysql+pymysql://u:p@db/x b=postgres://v:q@pg/y', ['mysql+pymysql://u:****@', 'postgres://v:****@']],
  ])('%s carries a password, masked in the answer', (text, masked) => {
    expect(urlsWithPassword(text)).toEqual(masked);
  });

  test.each([
    'rabbit://nova:$(MQ_PASSWORD)@mq:5672/nova',
    'mysql+pymysql://keystone:${DB_PASSWORD}@db:3306/keystone',
    'mysql://root:$PW@db',
    'rabbit://nova@mq:5672/',
    'https://keystone:5000/v3',
    'mailto:someone@example.com',
  ])('%s carries no literal password', (text) => {
    expect(urlsWithPassword(text)).toEqual([]);
  });

  test('option names that say password', () => {
    expect(
      ['password', 'memcache_password', 'DB_PASSWD', 'host_password'].filter(isPasswordName),
    ).toHaveLength(4);
    expect(
      ['inject_password_len', 'password_regex', 'passwords', 'enable_instance_password_x'].filter(
        isPasswordName,
      ),
    ).toEqual([]);
  });

  test("Stackwright's own references, booleans named like passwords and Keystone's [auth] password pass", () => {
    expect(
      osloRenderProblems(
        {
          DEFAULT: { transport_url: 'rabbit://nova:$(MQ_PASSWORD)@mq:5672/nova' },
          libvirt: { inject_password: false },
          auth: { password: 'keystone.auth.plugins.password.Password' },
          keystone_authtoken: { password: '$(KEYSTONE_PASSWORD)' },
        },
        'config',
      ),
    ).toEqual([]);
  });
});
