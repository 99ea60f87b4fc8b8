/**
 * The docs/product/validation.md#registration rules as antd Form rules, with the product's messages: one place for the registration
 * and account forms. Each validator resolves or rejects with the message to show.
 */
import {
  checkPassword,
  checkPersonName,
  checkUsername,
  isBlank,
  isStrongEnough,
  isValidPhone,
  passwordsMatch,
  type NameProblem,
} from '@portal/contracts';
import type { FormRule } from 'antd';
import { runtimeConfig } from '../lib/config';
import { i18n } from '../lib/i18n';

const t = (key: string) => i18n.t(key);
const check = (ok: boolean, key: string) => (ok ? Promise.resolve() : Promise.reject(new Error(t(key))));

/** Required text (null, 'null' and 'undefined' are empty, docs/product/validation.md#company), with the field's own message. */
export const required = (key: string): FormRule => ({
  validator: (_, v: unknown) => check(!isBlank(v) && !(Array.isArray(v) && v.length === 0), key),
});

/** Password: 请输入密码, then 密码强度不够 below medium, then the full rule (not containing `username`). */
export const passwordRule = (username: () => string | undefined): FormRule => ({
  validator: (_, v: string | undefined) => {
    if (!v) return check(false, 'forms.passwordRequired');
    if (!isStrongEnough(v)) return check(false, 'forms.passwordWeak');
    return check(checkPassword(v, username()).length === 0, 'forms.passwordRule');
  },
});

/** Repeat password: 请再次输入密码！, then equal after trimming (两次密码不一致). */
export const repeatRule = (password: () => string | undefined): FormRule => ({
  validator: (_, v: string | undefined) =>
    !v ? check(false, 'forms.repeatRequired') : check(passwordsMatch(password() ?? '', v), 'forms.repeatMismatch'),
});

export const mobileRule: FormRule = {
  validator: (_, v: string | undefined) =>
    check(isValidPhone((v ?? '').trim(), runtimeConfig().phonePattern), 'forms.mobileInvalid'),
};

export const agreementRule: FormRule = {
  validator: (_, v: boolean | undefined) => check(v === true, 'forms.agreementRequired'),
};

/** The message of a name's first problem (ADR 032); input is normalised, so no space at an end. */
const nameMessage = (kind: 'username' | 'name', problem: NameProblem): string => {
  if (kind === 'username') {
    if (problem === 'tooShort' || problem === 'tooLong') return 'forms.usernameLength';
    if (problem === 'spaces') return 'forms.usernameSpaces';
    if (problem === 'character' || problem === 'markFirst') return 'forms.usernameCharacters';
    if (problem === 'lookAlike') return 'forms.usernameLookAlike';
    return 'forms.usernameInvisible';
  }
  if (problem === 'tooLong') return 'forms.nameTooLong';
  if (problem === 'spaces') return 'forms.nameSpaces';
  return 'forms.nameInvisible';
};

/**
 * A user name by the contracts' grammar (ADR 032), as the server checks it: letters of any script,
 * digits, single spaces and . _ - @ + ·, 2 to 64 of them. Empty is the required rule's to say.
 */
export const usernameRule: FormRule = {
  validator: (_, v: string | undefined) => {
    if (!v?.trim()) return Promise.resolve();
    const { problem } = checkUsername(v);
    return problem ? check(false, nameMessage('username', problem)) : Promise.resolve();
  },
};

/** A person's name (a name, an English name, a nickname, a contact person): one line of visible text. */
export const personNameRule = (max?: number): FormRule => ({
  validator: (_, v: string | undefined) => {
    if (!v?.trim()) return Promise.resolve();
    const { problem } = checkPersonName(v, max);
    return problem ? check(false, nameMessage('name', problem)) : Promise.resolve();
  },
});
