import { ChangeSignal } from '../../../lib/runtime/engine/change-signal';

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

test('every waiter wakes on the next notify', async () => {
  const signal = new ChangeSignal();
  const first = signal.wait();
  const second = signal.wait();
  expect(await settled(first)).toBe(false);
  signal.notify();
  expect(await settled(first)).toBe(true);
  expect(await settled(second)).toBe(true);
});

test('a waiter arriving after a notify waits for the following one', async () => {
  const signal = new ChangeSignal();
  signal.notify();
  const late = signal.wait();
  expect(await settled(late)).toBe(false);
  signal.notify();
  expect(await settled(late)).toBe(true);
});
