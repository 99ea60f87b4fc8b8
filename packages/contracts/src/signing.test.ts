import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOGOUT_CODES, ResultCode, httpStatusOf } from './codes.js';
import { NONCE_PATTERN, SIGNING_HEADERS, canonicalParams, signingText } from './signing.js';

describe('canonicalParams', () => {
  it('is empty without parameters', () => {
    expect(canonicalParams()).toBe('');
    expect(canonicalParams(null, null)).toBe('');
    expect(canonicalParams({}, {})).toBe('');
  });

  it('drops null, undefined and empty strings but keeps 0, false and whitespace', () => {
    expect(canonicalParams({ a: null, b: undefined, c: '', d: 'x' })).toBe('d=x');
    expect(canonicalParams(null, { a: null, b: undefined, c: '', n: 0, f: false, s: ' ' })).toBe('f=false&n=0&s= ');
  });

  it('sorts by key, by code unit rather than locale', () => {
    expect(canonicalParams({ b: '1', a: '2', c: '0' })).toBe('a=2&b=1&c=0');
    expect(canonicalParams({ a: '1', B: '2', _: '3', ab: '4' })).toBe('B=2&_=3&a=1&ab=4');
  });

  it('sorts equal keys by value, across query and body', () => {
    expect(canonicalParams({ k: ['b', 'a', 'c'] })).toBe('k=a&k=b&k=c');
    expect(canonicalParams({ k: '2' }, { k: '1' })).toBe('k=1&k=2');
    expect(canonicalParams({ k: '10' }, { k: 9 })).toBe('k=10&k=9');
  });

  it('writes numbers, booleans and bigints with String()', () => {
    expect(canonicalParams(null, { n: 1.5, i: -3, t: true, f: false, big: 12345678901234567890n, e: 1e21 })).toBe(
      'big=12345678901234567890&e=1e+21&f=false&i=-3&n=1.5&t=true',
    );
  });

  it('writes object and array body fields as JSON text', () => {
    expect(canonicalParams(null, { o: { x: 1, y: [1, 'a'] }, arr: ['a', 'b'], empty: [], none: {} })).toBe(
      'arr=["a","b"]&empty=[]&none={}&o={"x":1,"y":[1,"a"]}',
    );
  });

  it('lets a repeated query key contribute each value, duplicates included, blanks dropped', () => {
    expect(canonicalParams({ tag: ['x', 'y', 'x', ''], z: '1' })).toBe('tag=x&tag=x&tag=y&z=1');
  });

  it('ignores a body that is an array (only top-level fields of an object count)', () => {
    expect(canonicalParams({ q: '1' }, ['a', 'b'] as unknown as Record<string, unknown>)).toBe('q=1');
  });

  it('does not URL-encode keys or values', () => {
    expect(canonicalParams({ q: 'a b&c=d/中文?%20' }, { 'key with space': '+' })).toBe(
      'key with space=+&q=a b&c=d/中文?%20',
    );
  });
});

describe('signingText', () => {
  it('joins timestamp, nonce, path and params with newlines', () => {
    expect(signingText('1700000000000', 'abcdefABCDEF0123', '/api/x', 'a=1&b=2')).toBe(
      '1700000000000\nabcdefABCDEF0123\n/api/x\na=1&b=2',
    );
    expect(signingText('1', 'n', '/p', '')).toBe('1\nn\n/p\n');
  });

  it('gives the signature docs/api.md describes (worked example)', () => {
    const text = signingText(
      '1700000000000',
      'abcdefABCDEF0123',
      '/api/front/member/front/allPermissionV2',
      canonicalParams({ roleId: '2', appCodes: 'ENT_WORKBENCH' }),
    );
    expect(text).toBe(
      '1700000000000\nabcdefABCDEF0123\n/api/front/member/front/allPermissionV2\nappCodes=ENT_WORKBENCH&roleId=2',
    );
    const signature = createHmac('sha256', 'secret').update(text).digest('hex');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('signing headers and nonce', () => {
  it('names the headers in lower case', () => {
    expect(SIGNING_HEADERS).toEqual({
      timestamp: 'x-timestamp',
      nonce: 'x-nonce',
      signature: 'x-signature',
      token: 'authorization_front',
    });
  });

  it('wants 16 to 64 ASCII letters and digits as nonce', () => {
    expect(NONCE_PATTERN.test('a'.repeat(16))).toBe(true);
    expect(NONCE_PATTERN.test('aZ09'.repeat(16))).toBe(true);
    expect(NONCE_PATTERN.test('a'.repeat(15))).toBe(false);
    expect(NONCE_PATTERN.test('a'.repeat(65))).toBe(false);
    expect(NONCE_PATTERN.test('abcdefgh-ijklmnop')).toBe(false);
    expect(NONCE_PATTERN.test('abcdefghijklmnoé')).toBe(false);
  });
});

describe('httpStatusOf', () => {
  it('keeps plain HTTP codes', () => {
    for (const code of [200, 400, 401, 403, 404, 413, 415, 429, 500, 503]) expect(httpStatusOf(code)).toBe(code);
  });

  it('maps five-digit result codes to their HTTP family', () => {
    expect(httpStatusOf(ResultCode.BAD_SIGNATURE)).toBe(400);
    expect(httpStatusOf(ResultCode.LOGIN_FAILED)).toBe(400);
    expect(httpStatusOf(ResultCode.SESSION_INVALID)).toBe(401);
    expect(httpStatusOf(ResultCode.SESSION_TIMEOUT)).toBe(401);
    expect(httpStatusOf(ResultCode.TICKET_EXPIRED)).toBe(401);
    expect(httpStatusOf(ResultCode.NO_PERMISSION_LOGOUT)).toBe(403);
    expect(httpStatusOf(ResultCode.NO_PERMISSION)).toBe(403);
    expect(httpStatusOf(ResultCode.FORCED_LOGOUT)).toBe(403);
    expect(httpStatusOf(50301)).toBe(503);
  });

  it('answers 400 for codes that name no HTTP error family', () => {
    for (const code of [0, -1, 99, 1000, 20001, 30201, 60000, 99999])
      expect(httpStatusOf(code), String(code)).toBe(400);
  });

  it('lists the codes that end the session', () => {
    expect([...LOGOUT_CODES].sort()).toEqual([401, 40101, 40109, 40121, 40301, 40307].sort());
    expect(LOGOUT_CODES).not.toContain(ResultCode.NO_PERMISSION);
  });
});
