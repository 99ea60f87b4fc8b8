import { describe, expect, it } from 'vitest';
import { keptParams, safeRedirect, tenantCodeOf, withKeptParams } from './address';

describe('kept query parameters', () => {
  it('keeps exactly the query parameters every navigation keeps', () => {
    const kept = keptParams(
      '?tc=demo&benchCode=B1&partBench=P&appCode=A&roleCode=R&tenantCode=T&iframe=1&service=S&x=1',
    );
    expect([...kept.keys()]).toEqual([
      'tc',
      'benchCode',
      'partBench',
      'appCode',
      'roleCode',
      'tenantCode',
      'iframe',
      'service',
    ]);
  });

  it('adds the missing ones to the next address and leaves present ones alone', () => {
    const prev = keptParams('?tc=demo&benchCode=B1');
    expect(withKeptParams('?page=2', prev)).toBe('?page=2&tc=demo&benchCode=B1');
    expect(withKeptParams('?tc=other', prev)).toBe('?tc=other&benchCode=B1');
    expect(withKeptParams('?tc=demo&benchCode=B1', prev)).toBeNull();
  });
});

describe('tenant code', () => {
  it('is read from tc, then tenantCode, then the redirect parameter', () => {
    expect(tenantCodeOf('?tc=a&tenantCode=b')).toBe('a');
    expect(tenantCodeOf('?tenantCode=b')).toBe('b');
    expect(tenantCodeOf(`?redirect=${encodeURIComponent('/x?tc=c')}`)).toBe('c');
  });
  it('ignores null and undefined in any case', () => {
    expect(tenantCodeOf('?tc=NULL&tenantCode=undefined')).toBeNull();
    expect(tenantCodeOf('?tc=Undefined&tenantCode=real')).toBe('real');
  });
});

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
    // A browser drops tabs and line breaks from an address: these would be //evil.test.
    '/\t/evil.test',
    '/\n/evil.test',
    '/\r/evil.test',
    '/\u0000/evil.test',
  ])('refuses %j', (p) => {
    expect(safeRedirect(p)).toBeNull();
  });
});
