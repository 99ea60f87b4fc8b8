import { describe, expect, it } from 'vitest';
import { LIMITS } from './constants.js';
import { DEFAULT_PASSWORD_RULES } from './security.js';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_EXTENSIONS,
  DEFAULT_PHONE_PATTERN,
  checkPassword,
  checkPasswordRules,
  passwordClassCount,
  cleanTenantCode,
  maskMobile,
  hasKeyboardSequence,
  isAllowedAttachment,
  isBlank,
  isStrongEnough,
  isValidPhone,
  isValidReplyLength,
  passwordStrength,
  passwordsMatch,
  phonePattern,
} from './rules.js';

describe('passwordStrength (the strength rule: classes digits, letters, other)', () => {
  it.each([
    ['', 0, 'low', 10],
    ['123456', 1, 'low', 30],
    ['abcDEF', 1, 'low', 30],
    ['!@#$ %', 1, 'low', 30],
    ['中文密码', 1, 'low', 30],
    ['abc123', 2, 'medium', 60],
    ['abc!!!', 2, 'medium', 60],
    ['123!!!', 2, 'medium', 60],
    ['Abc12!', 3, 'strong', 100],
    ['密码abc1', 3, 'strong', 100],
  ] as const)('%j has %i classes, level %s, meter %i', (password, classes, level, meter) => {
    expect(passwordStrength(password)).toEqual({ classes, level, meter });
  });

  it('counts a class once however often it occurs', () => {
    expect(passwordStrength('aaaaaaaaaaaaaaaaaaaaaa').classes).toBe(1);
    expect(passwordStrength('a1a1a1a1a1a1a1a1a1a1').classes).toBe(2);
  });
});

describe('isStrongEnough (below medium is refused)', () => {
  it('refuses zero and one class', () => {
    expect(isStrongEnough('')).toBe(false);
    expect(isStrongEnough('abcdefgh')).toBe(false);
    expect(isStrongEnough('12345678')).toBe(false);
    expect(isStrongEnough('!!!!!!!!')).toBe(false);
  });

  it('accepts two and three classes', () => {
    expect(isStrongEnough('abcd1234')).toBe(true);
    expect(isStrongEnough('1234!!!!')).toBe(true);
    expect(isStrongEnough('Ab1!')).toBe(true);
  });
});

describe('hasKeyboardSequence', () => {
  it('finds runs of four in keyboard rows and the alphabet, either direction, any case', () => {
    for (const p of ['xxqwerxx', '1234', 'ABCD', 'asdf', 'zxcv', 'rewq', '4321', 'dcba', '7890', ';lkj', 'QwEr']) {
      expect(hasKeyboardSequence(p), p).toBe(true);
    }
  });

  it('does not flag runs of three or non-adjacent keys', () => {
    for (const p of ['qwe', '123', 'abc', 'qwxer', '1324', 'aqsw', 'Tr0ub4dor&3']) {
      expect(hasKeyboardSequence(p), p).toBe(false);
    }
  });

  it('takes the run length as a parameter', () => {
    expect(hasKeyboardSequence('qwe', 3)).toBe(true);
    expect(hasKeyboardSequence('qwert', 6)).toBe(false);
    expect(hasKeyboardSequence('qwerty', 6)).toBe(true);
  });
});

describe('checkPassword (the registration rule)', () => {
  it('reports an empty password as required only', () => {
    expect(checkPassword('')).toEqual(['required']);
    expect(checkPassword('', 'member')).toEqual(['required']);
  });

  it('needs at least 8 characters', () => {
    expect(LIMITS.passwordMinLength).toBe(8);
    expect(checkPassword('Ab1!xZq')).toEqual(['tooShort']);
    expect(checkPassword('Ab1!xZqP')).toEqual([]);
  });

  it.each([
    ['a digit', 'Ab!xZqPw'],
    ['a lowercase letter', 'AB1!XZQP'],
    ['an uppercase letter', 'ab1!xzqp'],
    ['a special character', 'Ab1xZqPw'],
  ])('reports a missing class when there is no %s', (_what, password) => {
    expect(checkPassword(password)).toEqual(['missingClass']);
  });

  it('reports a password that contains the username, case-insensitively and trimmed', () => {
    expect(checkPassword('Gr8!wOLFy', 'Wolf')).toEqual(['containsUsername']);
    expect(checkPassword('Gr8!wOLFy', '  wolf ')).toEqual(['containsUsername']);
    expect(checkPassword('Gr8!wOLFy', 'fox')).toEqual([]);
    expect(checkPassword('Gr8!wOLFy', '')).toEqual([]);
    expect(checkPassword('Gr8!wOLFy', '   ')).toEqual([]);
    expect(checkPassword('Gr8!wOLFy', null)).toEqual([]);
  });

  it.each([
    ['qwer', 'Qwer#2026x'],
    ['1234', 'Xy!1234zZ'],
    ['abcd', 'Xabcd!9Z'],
    ['reversed rewq', 'Zrewq!9x'],
    ['reversed 4321', 'Zx!4321yY'],
    ['asdf in upper case', 'ASDF!9xy'],
  ])('reports a keyboard run (%s)', (_what, password) => {
    expect(checkPassword(password)).toEqual(['keyboardSequence']);
  });

  it('allows runs of three keys', () => {
    expect(checkPassword('Qwe#2026xZ')).toEqual([]);
  });

  it('reports every problem at once', () => {
    expect(checkPassword('qwer', 'qw')).toEqual(['tooShort', 'missingClass', 'containsUsername', 'keyboardSequence']);
  });

  it('passes good passwords', () => {
    expect(checkPassword('Tr0ub4dor&3', 'member')).toEqual([]);
    expect(checkPassword('Demo@2026!', 'admin')).toEqual([]);
    expect(checkPassword('密码Ab1!xZq')).toEqual([]);
  });
});

describe('passwordsMatch', () => {
  it('compares after trimming both sides', () => {
    expect(passwordsMatch(' Abc1!xyz ', 'Abc1!xyz')).toBe(true);
    expect(passwordsMatch('Abc1!xyz', '\tAbc1!xyz\n')).toBe(true);
    expect(passwordsMatch('', '   ')).toBe(true);
  });

  it('is case sensitive and keeps inner spaces', () => {
    expect(passwordsMatch('Abc1!xyz', 'abc1!xyz')).toBe(false);
    expect(passwordsMatch('Abc 1!xyz', 'Abc1!xyz')).toBe(false);
    expect(passwordsMatch('Abc1!xyz', 'Abc1!xy')).toBe(false);
  });
});

describe('isValidPhone', () => {
  it('accepts 11 digits starting 13, 14, 15, 17, 18, 19 by default', () => {
    for (const p of ['13800000000', '14700000000', '15912345678', '17012345678', '18800000000', '19912345678']) {
      expect(isValidPhone(p), p).toBe(true);
    }
  });

  it('refuses other prefixes, wrong lengths, letters and padding', () => {
    for (const p of [
      '12800000000',
      '16800000000',
      '10800000000',
      '11800000000',
      '23800000000',
      '1380000000',
      '138000000000',
      '1380000000a',
      'abcdefghijk',
      ' 13800000000',
      '13800000000 ',
      '+8613800000000',
      '',
    ]) {
      expect(isValidPhone(p), p).toBe(false);
    }
  });

  it('uses a configured pattern instead of the default', () => {
    expect(isValidPhone('12345678', '^\\d{8}$')).toBe(true);
    expect(isValidPhone('13800000000', '^\\d{8}$')).toBe(false);
    expect(phonePattern('^\\d{8}$').source).toBe('^\\d{8}$');
  });

  it('falls back to the default pattern when the override is not a valid regex or is empty', () => {
    for (const override of ['(', '[a-', '*', '', null, undefined]) {
      expect(phonePattern(override).source).toBe(DEFAULT_PHONE_PATTERN);
      expect(isValidPhone('13800000000', override)).toBe(true);
      expect(isValidPhone('12345678', override)).toBe(false);
    }
  });
});

describe('isValidReplyLength (2 to 255 characters)', () => {
  it('checks the boundaries', () => {
    expect(isValidReplyLength('')).toBe(false);
    expect(isValidReplyLength('a')).toBe(false);
    expect(isValidReplyLength('ab')).toBe(true);
    expect(isValidReplyLength('a'.repeat(255))).toBe(true);
    expect(isValidReplyLength('a'.repeat(256))).toBe(false);
    expect(isValidReplyLength('好'.repeat(255))).toBe(true);
    expect(isValidReplyLength('好'.repeat(256))).toBe(false);
  });

  it('counts an emoji (two UTF-16 units) as one character', () => {
    expect('😀'.length).toBe(2);
    expect(isValidReplyLength('😀')).toBe(false);
    expect(isValidReplyLength('😀😀')).toBe(true);
    expect(isValidReplyLength('a😀')).toBe(true);
    expect(isValidReplyLength('😀'.repeat(255))).toBe(true);
    expect(isValidReplyLength('😀'.repeat(256))).toBe(false);
    expect(isValidReplyLength('a'.repeat(254) + '😀')).toBe(true);
  });
});

describe('isAllowedAttachment', () => {
  it('knows exactly the 18 allowed extensions', () => {
    expect([...ATTACHMENT_EXTENSIONS].sort()).toEqual(
      [
        'mp4',
        'gz',
        'css',
        'js',
        'jpeg',
        'jpg',
        'png',
        'pdf',
        'doc',
        'docx',
        'gif',
        'xls',
        'xlsx',
        'ppt',
        'pptx',
        'rar',
        'zip',
        'txt',
      ].sort(),
    );
  });

  it.each([...ATTACHMENT_EXTENSIONS])('accepts .%s in lower and upper case', (ext) => {
    expect(isAllowedAttachment(`report.${ext}`)).toBe(true);
    expect(isAllowedAttachment(`REPORT.${ext.toUpperCase()}`)).toBe(true);
    expect(isAllowedAttachment(`季度 报告.v2.${ext}`)).toBe(true);
  });

  it('gives the file picker the same list (accept: each extension with its dot)', () => {
    const accepted = ATTACHMENT_ACCEPT.split(',');
    expect(accepted).toHaveLength(ATTACHMENT_EXTENSIONS.length);
    for (const ext of accepted) {
      expect(ext).toMatch(/^\.[a-z0-9]+$/);
      expect(isAllowedAttachment(`report${ext}`)).toBe(true);
    }
  });

  it('uses the last extension only', () => {
    expect(isAllowedAttachment('archive.tar.gz')).toBe(true);
    expect(isAllowedAttachment('invoice.pdf.exe')).toBe(false);
  });

  it('refuses other extensions, no extension, a trailing dot and dot files', () => {
    for (const name of [
      'setup.exe',
      'setup.EXE',
      'script.sh',
      'page.html',
      'README',
      'report.',
      '.pdf',
      '.',
      '',
      'x.pdf ',
      'x.jpeg2',
    ]) {
      expect(isAllowedAttachment(name), name).toBe(false);
    }
  });
});

describe('isBlank', () => {
  it('treats null, undefined, whitespace and the strings null/undefined as empty', () => {
    for (const v of [null, undefined, '', ' ', '\t\n', 'null', 'undefined', ' null ', ' undefined\n']) {
      expect(isBlank(v), JSON.stringify(v)).toBe(true);
    }
  });

  it('keeps real values, including falsy non-strings', () => {
    for (const v of ['x', '星河科技', 'nullable', '0', 0, false, {}, []]) {
      expect(isBlank(v), JSON.stringify(v)).toBe(false);
    }
  });
});

describe('cleanTenantCode', () => {
  it('ignores null, undefined, blank and the strings null/undefined in any case', () => {
    for (const v of [null, undefined, '', ' ', 'null', 'NULL', 'Null', 'undefined', 'UNDEFINED', ' Undefined ']) {
      expect(cleanTenantCode(v), JSON.stringify(v)).toBeNull();
    }
  });

  it('returns a real code trimmed', () => {
    expect(cleanTenantCode('demo')).toBe('demo');
    expect(cleanTenantCode('  demo\n')).toBe('demo');
    expect(cleanTenantCode('nullpark')).toBe('nullpark');
    expect(cleanTenantCode('undefined1')).toBe('undefined1');
  });
});

describe('maskMobile', () => {
  it('keeps the first three and the last four digits', () => {
    expect(maskMobile('13800000001')).toBe('138****0001');
    expect(maskMobile('123456')).toBe('123456');
  });
});

describe('the tenant password rules (docs/product/security-policy.md#password-rules)', () => {
  /** The registration rule as it was before tenants could set theirs: the defaults must answer the same. */
  function registrationRule(password: string, username?: string | null): string[] {
    if (!password) return ['required'];
    const problems: string[] = [];
    if (password.length < 8) problems.push('tooShort');
    if (!/\d/.test(password) || !/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[^A-Za-z0-9]/.test(password))
      problems.push('missingClass');
    if (username && username.trim().length > 0 && password.toLowerCase().includes(username.trim().toLowerCase()))
      problems.push('containsUsername');
    if (hasKeyboardSequence(password)) problems.push('keyboardSequence');
    return problems;
  }

  it('defaults to the registration rule, for every password', () => {
    const alphabet = 'aZ9#xQ1!bY k.é中';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      const length = next() % 14;
      const password = Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
      const username = ['', 'xq', 'Zhang', null][next() % 4];
      expect(checkPasswordRules(password, username, DEFAULT_PASSWORD_RULES), password).toEqual(
        registrationRule(password, username),
      );
      expect(checkPassword(password, username)).toEqual(registrationRule(password, username));
    }
    expect(DEFAULT_PASSWORD_RULES).toMatchObject({
      passwordMinLength: 8,
      passwordClasses: 4,
      passwordNotUsername: true,
      passwordHistory: 0,
      passwordMaxAgeDays: 0,
      passwordNotCommon: false,
    });
  });

  it('holds each rule the tenant sets', () => {
    const rules = { ...DEFAULT_PASSWORD_RULES, passwordMinLength: 12, passwordClasses: 2, passwordNotUsername: false };
    expect(checkPasswordRules('Harbour#2026', 'x', rules)).toEqual([]);
    expect(checkPasswordRules('Harbour#26', 'x', rules)).toEqual(['tooShort']);
    expect(checkPasswordRules('harbourlampxyzw', 'x', rules)).toEqual(['missingClass']);
    expect(checkPasswordRules('harbourlamp2026', 'harbour', rules)).toEqual([]);
    expect(checkPasswordRules('harbourlamp2026', 'harbour', { ...rules, passwordNotUsername: true })).toEqual([
      'containsUsername',
    ]);
    expect(checkPasswordRules('harbourlamp2026', 'x', { ...rules, passwordClasses: 3 })).toEqual(['missingClass']);
    expect(checkPasswordRules('qwerharbour2026', 'x', rules)).toEqual(['keyboardSequence']);
    expect(passwordClassCount('aA1!')).toBe(4);
    expect(passwordClassCount('aaaa')).toBe(1);
  });
});
