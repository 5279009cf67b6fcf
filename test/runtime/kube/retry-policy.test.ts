import { backoffDelay, RetryPolicy } from '../../../lib/runtime/kube/retry-policy';

const policy = (random: number): RetryPolicy => ({
  attempts: 5,
  baseMs: 200,
  maxMs: 1_000,
  random: () => random,
});

test('the back-off doubles from baseMs, capped at maxMs, with jitter between half and all of it', () => {
  expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy(1), attempt))).toEqual([200, 400, 800, 1_000]);
  expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy(0), attempt))).toEqual([100, 200, 400, 500]);
});

test("the server's retryAfterSeconds wins over the back-off", () => {
  expect(backoffDelay(policy(1), 1, 3)).toBe(3_000);
  expect(backoffDelay(policy(1), 1, 0)).toBe(200);
});
