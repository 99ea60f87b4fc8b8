import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('redirect targets', () => {
  it.each(['/index', '/ent/colist?tc=demo', '/a/b#c'])('allows the in-app path %s', (p) => {
    expect(safeRedirect(p)).toBe(p);
  });
  it.each([
    '//evil.test',
    'https://evil.test',
    'javascript:alert(1)',
    '/\\evil.test',
    'evil',
    '',
    null,
    '/javascript:x',
  ])('refuses %s', (p) => {
    expect(safeRedirect(p)).toBeNull();
  });
});
