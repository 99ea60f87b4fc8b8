import { describe, expect, it } from 'vitest';
import { multipartBoundary, refuseEmptyPatch, refuseUnsafeValues, shapeIssue, unsafeValueAt } from './input-guard.js';

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe('the shape of a JSON body', () => {
  it('allows 32 levels and refuses 33, without recursion (5,000 levels do not overflow)', () => {
    expect(shapeIssue(nested(31))).toBeNull();
    expect(shapeIssue(nested(33))).toBe('bodyTooDeep');
    expect(shapeIssue(JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`))).toBe('bodyTooDeep');
  });

  it('refuses a list of more than 1,000 items and a text of more than 65,536 characters, keys included', () => {
    expect(shapeIssue({ x: Array(1000).fill(0) })).toBeNull();
    expect(shapeIssue({ x: Array(1001).fill(0) })).toBe('bodyArrayTooLong');
    expect(shapeIssue({ x: 'a'.repeat(65_537) })).toBe('bodyStringTooLong');
    expect(shapeIssue({ ['k'.repeat(65_537)]: 1 })).toBe('bodyStringTooLong');
  });
});

describe('values a schema accepted', () => {
  it('finds a control character or an unsafe number, with where it sits', () => {
    expect(unsafeValueAt({ a: 'line\nnext\ttab\r' })).toBeNull();
    expect(unsafeValueAt({ a: [{ b: 'x\u0000y' }] })).toEqual({ path: '/a/0/b', issue: 'controlCharacter' });
    expect(unsafeValueAt({ 'k\u0007': 1 })).toEqual({ path: '/k?', issue: 'controlCharacter' });
    expect(unsafeValueAt('\u007f')).toEqual({ path: '', issue: 'controlCharacter' });
    expect(unsafeValueAt({ n: Infinity })).toEqual({ path: '/n', issue: 'numberRange' });
    expect(unsafeValueAt({ n: 2 ** 53 })).toEqual({ path: '/n', issue: 'numberRange' });
    expect(unsafeValueAt({ n: -(2 ** 53 - 1), m: 1.5 })).toBeNull();
  });

  it('wraps a validator: its own errors first, then the rule, for path parameters as for anything else', () => {
    const passes = Object.assign(() => true, { errors: null });
    const fails = Object.assign(() => false, { errors: [{ keyword: 'pattern' }] });
    const params = { code: 'a\u0000b' };
    const checked = refuseUnsafeValues(passes);
    expect(checked(params)).toBe(false);
    expect(checked.errors).toEqual([{ keyword: 'controlCharacter', instancePath: '/code', params: {} }]);
    expect(checked({ code: 'ab' })).toBe(true);
    expect(checked.errors).toBeNull();
    const refused = refuseUnsafeValues(fails);
    expect(refused(params)).toBe(false);
    expect(refused.errors).toEqual([{ keyword: 'pattern' }]);
    // Coercion may replace the root in its parent; the rule reads the value the route will get.
    const parent = { querystring: { n: '1' } as Record<string, unknown> };
    const coerce = Object.assign(
      (_: unknown, ctx?: { parentData: Record<string, unknown>; parentDataProperty: string }) => {
        ctx!.parentData[ctx!.parentDataProperty] = { n: Infinity };
        return true;
      },
      { errors: null },
    );
    expect(
      refuseUnsafeValues(coerce)(parent.querystring, { parentData: parent, parentDataProperty: 'querystring' }),
    ).toBe(false);
  });
});

describe('text that is not Unicode', () => {
  it('finds half of a surrogate pair in a value or a key, never a whole pair', () => {
    expect(unsafeValueAt({ a: '😀名' })).toBeNull();
    expect(unsafeValueAt({ a: ['x', 'y\ud800'] })).toEqual({ path: '/a/1', issue: 'loneSurrogate' });
    expect(unsafeValueAt({ a: '\udc00' })).toEqual({ path: '/a', issue: 'loneSurrogate' });
    expect(unsafeValueAt({ ['k\udbff']: 1 })).toEqual({ path: '/k?', issue: 'loneSurrogate' });
    // What a JSON body's parse checks: text only (numbers are the schemas' business).
    expect(unsafeValueAt({ n: Infinity, s: 'ok' }, { numbers: false })).toBeNull();
    expect(unsafeValueAt({ n: Infinity, s: '\u0000' }, { numbers: false })).toEqual({
      path: '/s',
      issue: 'controlCharacter',
    });
  });
});

describe('a PATCH body', () => {
  it('must name one of the fields its route changes', () => {
    const passes = Object.assign(() => true, { errors: null });
    const checked = refuseEmptyPatch(passes, ['name', 'mobile']);
    expect(checked({ mobile: null })).toBe(true);
    expect(checked.errors).toBeNull();
    for (const body of [{}, { other: 1 }, null]) {
      expect(checked(body)).toBe(false);
      expect(checked.errors).toEqual([
        { keyword: 'nothingToChange', instancePath: '', params: { fields: 'name, mobile' } },
      ]);
    }
  });
});

describe('a multipart boundary', () => {
  it.each([
    ['multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW', '----WebKitFormBoundary7MA4YWxkTrZu0gW'],
    ['multipart/form-data; charset=utf-8; BOUNDARY="a b:c"', 'a b:c'],
    ['multipart/form-data;boundary=x', 'x'],
  ])('reads %s', (type, boundary) => expect(multipartBoundary(type)).toBe(boundary));

  it.each([
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=""',
    'multipart/form-data; boundary="ends in space "',
    `multipart/form-data; boundary=${'x'.repeat(71)}`,
    'multipart/form-data; boundary=a\u0000b',
  ])('refuses %j', (type) => expect(multipartBoundary(type)).toBeNull());
});
