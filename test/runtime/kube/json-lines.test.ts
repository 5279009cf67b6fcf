import { jsonLines } from '../../../lib/runtime/kube/json-line-stream';

test('lines split across chunks and several lines in one chunk arrive whole and in order', () => {
  const seen: unknown[] = [];
  const feed = jsonLines((line) => seen.push(line));
  feed('{"type":"ADD');
  feed('ED","n":1}\n{"type":"MODIFIED","n":2}\n\n  \n{"type"');
  expect(seen).toEqual([
    { type: 'ADDED', n: 1 },
    { type: 'MODIFIED', n: 2 },
  ]);
  feed(':"DELETED","n":3}\n');
  expect(seen).toHaveLength(3);
});

test('a line that is not JSON throws, so the stream ends with the error', () => {
  const feed = jsonLines(() => undefined);
  expect(() => feed('<html>\n')).toThrow(SyntaxError);
});
