import { describe, expect, it } from 'vitest';
import {
  checkPersonName,
  checkUsername,
  isOneLine,
  normalizeName,
  personNameProblem,
  usernameProblem,
} from './names.js';

describe('user names', () => {
  it.each([
    ['ｍｅｍｂｅｒ', 'member'],
    ['Ａｄｍｉｎ', 'Admin'],
    ['ſmember', 'smember'],
    ['ﬀoo', 'ffoo'],
    ['𝐚𝐝𝐦𝐢𝐧', 'admin'],
    ['\u212Aelvin', 'Kelvin'],
  ])('writes the compatibility forms of letters %j as the letters themselves (%j), at sign-in too', (input, kept) => {
    expect(checkUsername(input)).toEqual({ value: kept, problem: null });
    // Stored before the rule, such a name is reported.
    expect(usernameProblem(input)).toBe('notNormalized');
  });

  it.each(['admın', 'straße', 'admi\u0307n', 'me\u0338mber', '7\u20dd'])(
    'refuses %j, which passes for a plain Latin name where case or marks are ignored',
    (name) => {
      expect(checkUsername(name).problem).toBe('lookAlike');
    },
  );

  it.each([
    'admin',
    'member',
    '13800000001',
    '张三',
    '欧阳娜娜',
    '买买提·艾力',
    'Zhang Wei',
    'li.na_2026',
    'ops+portal@park.example',
    'Łukasz',
    'Ελένη',
    'Дмитрий',
    'محمد',
    'नमस्ते',
    '김민준',
    'さくら',
    'José',
    'Νίκος',
    'İzmir',
  ])('accepts %j', (name) => {
    expect(usernameProblem(name)).toBeNull();
    expect(checkUsername(name)).toEqual({ value: name, problem: null });
  });

  it.each([
    ['admin\nzz', 'lineBreak'],
    ['a\rb', 'lineBreak'],
    ['a\u2028b', 'lineBreak'],
    ['a\u2029b', 'lineBreak'],
    ['a\u0085b', 'lineBreak'],
    ['a\u000bb', 'lineBreak'],
    ['a\u000cb', 'lineBreak'],
    ['a\tb', 'control'],
    ['a\u0000b', 'control'],
    ['a\u009bb', 'control'],
    ['\u202eadmin', 'invisible'],
    ['ad\u200bmin', 'invisible'],
    ['ad\u200dmin', 'invisible'],
    ['ad\u2066min', 'invisible'],
    ['ad\u00admin', 'invisible'],
    ['ad\ufeffmin', 'invisible'],
    ['ad\ufe0fmin', 'invisible'],
    ['ad\u3164min', 'invisible'],
    ['ad\u00a0min', 'invisible'],
    ['ad\u3000min', 'invisible'],
    ['ad\u2800min', 'invisible'],
    ['ad\ue000min', 'invisible'],
    ['ad\ud800min', 'invisible'],
    ['ad\udc00min', 'invisible'],
    ['a\u{e0041}b', 'invisible'],
    [' admin', 'edgeSpace'],
    ['admin ', 'edgeSpace'],
    ['zhang  wei', 'spaces'],
    ['a', 'tooShort'],
    ['名', 'tooShort'],
    ['a'.repeat(65), 'tooLong'],
    ['e\u0301mile', 'notNormalized'],
    ['\u0301abc', 'markFirst'],
    ['a<b', 'character'],
    ['a&b', 'character'],
    ['a"b', 'character'],
    ["o'neil", 'character'],
    ['a/b', 'character'],
    ['a:b', 'character'],
    ['😀😀', 'character'],
  ])('refuses %j (%s)', (name, problem) => {
    expect(usernameProblem(name)).toBe(problem);
  });

  it('counts the length in characters, not UTF-16 units', () => {
    expect(usernameProblem('名'.repeat(64))).toBeNull();
    expect(usernameProblem('𠀀'.repeat(64))).toBeNull();
    expect(usernameProblem('𠀀'.repeat(65))).toBe('tooLong');
  });

  it('normalises input: surrounding white space dropped, NFC', () => {
    expect(normalizeName('  e\u0301mile\u3000')).toBe('\u00e9mile');
    expect(checkUsername(' e\u0301mile ')).toEqual({ value: '\u00e9mile', problem: null });
    expect(checkUsername('admin\n')).toEqual({ value: 'admin', problem: null });
    expect(checkUsername('ad\nmin')).toEqual({ value: 'ad\nmin', problem: 'lineBreak' });
    // A lone surrogate survives normalisation and is refused.
    expect(checkUsername('ab\ud800').problem).toBe('invisible');
  });
});

describe("a person's name", () => {
  it.each(['张敏', '系统管理员', "O'Brien & Sons", '张三（财务）', '<b>Li</b>', 'Zhang Min', '名'])(
    'accepts %j',
    (name) => {
      expect(personNameProblem(name)).toBeNull();
    },
  );

  it.each([
    ['', 'required'],
    ['a\nb', 'lineBreak'],
    ['a\u2028b', 'lineBreak'],
    ['\u202eevil', 'invisible'],
    ['a\u200bb', 'invisible'],
    ['a\ud800', 'invisible'],
    ['a  b', 'spaces'],
    [' a', 'edgeSpace'],
    ['名'.repeat(65), 'tooLong'],
  ])('refuses %j (%s)', (name, problem) => {
    expect(personNameProblem(name)).toBe(problem);
  });

  it('takes a shorter limit where the field has one', () => {
    expect(checkPersonName('名'.repeat(33), 32).problem).toBe('tooLong');
    expect(checkPersonName(' 名 ', 32)).toEqual({ value: '名', problem: null });
  });
});

describe('one line', () => {
  it.each(['admin', '张三', 'a<b&"c', 'zhang  wei', 'e\u0301'])('%j is one line', (v) =>
    expect(isOneLine(v)).toBe(true),
  );
  it.each(['', 'admin\nzz', 'a\rb', 'a\u2028b', 'a\u0085b', ' admin', 'admin ', 'a\u202eb', 'a\ud800', 'a\u0000'])(
    '%j is not',
    (v) => expect(isOneLine(v)).toBe(false),
  );
});
