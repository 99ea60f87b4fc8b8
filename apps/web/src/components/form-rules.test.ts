import { DEFAULT_PASSWORD_RULES } from '@portal/contracts';
import type { RuleObject } from 'antd/es/form';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import {
  agreementRule,
  mobileRule,
  passwordRule,
  personNameRule,
  repeatRule,
  required,
  usernameRule,
} from './form-rules';

type Validator = (rule: RuleObject, value: unknown) => Promise<void>;
const run = async (rule: unknown, value: unknown): Promise<string | null> => {
  try {
    await (rule as { validator: Validator }).validator({}, value);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

beforeAll(() => setLocale('zh-CN'));

describe('form rules (the product messages)', () => {
  it('required treats null, "null", "undefined", blanks and empty picks as empty', async () => {
    const rule = required('forms.companyRequired');
    for (const v of [undefined, null, '', '  ', 'null', 'undefined', []])
      expect(await run(rule, v)).toBe('请输入公司名称!');
    expect(await run(rule, '星河')).toBeNull();
    expect(await run(rule, ['C', '13'])).toBeNull();
  });

  it('password: required, then strength below medium, then the full rule', async () => {
    const rule = passwordRule(() => 'lihua');
    expect(await run(rule, '')).toBe('请输入密码');
    expect(await run(rule, 'abcdefgh')).toBe('密码强度不够');
    expect(await run(rule, '12345678')).toBe('密码强度不够');
    expect(await run(rule, 'abcd1234')).toMatch(/^口令长度至少8位/);
    expect(await run(rule, 'Lihua#2026x')).toMatch(/^口令长度至少8位/);
    expect(await run(rule, 'Ab1!xzwq')).toBeNull();
    expect(await run(rule, 'Ab1!xzw')).toMatch(/^口令长度至少8位/);
  });

  it("password: the tenant's rules from the runtime config, each named", async () => {
    const config = window.__PORTAL_CONFIG__!;
    const rules = { ...DEFAULT_PASSWORD_RULES, passwordMinLength: 12, passwordClasses: 1, passwordNotUsername: false };
    window.__PORTAL_CONFIG__ = { ...config, passwordRules: rules };
    try {
      const rule = passwordRule(() => 'lihua');
      // One class is enough: no strength message, the length names 12.
      expect(await run(rule, 'abcdefgh')).toBe('密码长度至少12位');
      expect(await run(rule, 'harbourlihuaxz')).toBeNull();
      window.__PORTAL_CONFIG__ = {
        ...config,
        passwordRules: { ...rules, passwordClasses: 3, passwordNotUsername: true },
      };
      expect(await run(rule, 'harbourlamp2026')).toBe('密码须包含数字、小写字母、大写字母、特殊符号中的至少3类');
      expect(await run(rule, 'Harbour#lihua26')).toBe('密码不能包含用户名');
      expect(await run(rule, 'Harbour#qwer26')).toMatch(/^密码不能包含键盘/);
    } finally {
      window.__PORTAL_CONFIG__ = config;
    }
  });

  it('repeat: required, then equal after trimming', async () => {
    const rule = repeatRule(() => 'Ab1!xzwq');
    expect(await run(rule, '')).toBe('请再次输入密码！');
    expect(await run(rule, 'Ab1!xzwQ')).toBe('两次密码不一致');
    expect(await run(rule, ' Ab1!xzwq ')).toBeNull();
  });

  it('mobile and agreement', async () => {
    expect(await run(mobileRule, '1381234567')).toBe('请输入正确手机号');
    expect(await run(mobileRule, '16812345678')).toBe('请输入正确手机号');
    expect(await run(mobileRule, ' 13812345678 ')).toBeNull();
    expect(await run(agreementRule, false)).toBe('请仔细阅读并勾选');
    expect(await run(agreementRule, true)).toBeNull();
  });

  it('speaks English when the locale is English', async () => {
    setLocale('en-US');
    expect(await run(mobileRule, '1')).toBe('Please enter a valid mobile number');
    setLocale('zh-CN');
  });

  it("user names: the server's grammar and its messages (ADR 032)", async () => {
    for (const ok of ['', 'lihua', '王小明', ' José Álvarez ', '买买提·艾力', 'ops+park@example.cn'])
      expect(await run(usernameRule, ok), ok).toBeNull();
    for (const bad of ['admin\nzz', 'a\rb', 'a\u2028b', 'a\u2029b', '\u202eadmin', 'ad\u200bmin', 'a\u00a0b'])
      expect(await run(usernameRule, bad), bad).toBe('用户名不能包含换行、控制字符或不可见字符');
    expect(await run(usernameRule, 'zhang  wei')).toBe('用户名不能包含连续的空格');
    expect(await run(usernameRule, 'a<b>')).toBe('用户名只能包含文字、数字、空格和 . _ - @ + · 符号');
    expect(await run(usernameRule, 'x')).toBe('用户名长度应为2到64个字符');
  });

  it("a person's name: one line of visible text, any characters otherwise", async () => {
    const rule = personNameRule();
    for (const ok of ['', '张敏', "O'Brien & Sons", '张三（财务）']) expect(await run(rule, ok), ok).toBeNull();
    expect(await run(rule, '李\u2028雷')).toBe('名称不能包含换行、控制字符或不可见字符');
    expect(await run(rule, '\u202e李雷')).toBe('名称不能包含换行、控制字符或不可见字符');
    expect(await run(rule, 'Li  Lei')).toBe('名称不能包含连续的空格');
    expect(await run(personNameRule(32), '名'.repeat(33))).toBe('名称过长');
  });
});
