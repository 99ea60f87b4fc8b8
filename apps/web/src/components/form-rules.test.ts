import type { RuleObject } from 'antd/es/form';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import { agreementRule, mobileRule, passwordRule, repeatRule, required } from './form-rules';

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

describe('form rules (spec §5 messages)', () => {
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
});
