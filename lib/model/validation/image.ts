import { shown } from '../../graph';
/** Problems with a container image reference: not empty, no whitespace or control characters. */
export function imageProblems(value: unknown, what = 'image'): string[] {
  if (typeof value === 'string' && value !== '' && !/[\s\p{Cc}]/u.test(value)) return [];
  return [
    `${what} ${shown(value)} is not an image reference; give one without spaces, e.g. 'registry.example.com/keystone:2025.1'`,
  ];
}

/** An image tag as registries accept it: up to 128 letters, digits, `_`, `.`, `-`, not starting with `.` or `-`. */
const IMAGE_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Problems with an image tag (the cloud's `release`). */
export function imageTagProblems(value: unknown, what = 'tag'): string[] {
  if (typeof value === 'string' && IMAGE_TAG.test(value)) return [];
  return [
    `${what} ${shown(value)} is not an image tag; use up to 128 letters, digits, '_', '.' and '-', e.g. '2025.1'`,
  ];
}
