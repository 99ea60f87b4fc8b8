/**
 * The docs/product/validation.md#registration rules as antd Form rules, with the product's messages: one place for the registration
 * and account forms. Each validator resolves or rejects with the message to show.
 */
import {
  DEFAULT_PASSWORD_RULES,
  checkPasswordRules,
  type PasswordRules,
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

const t = (key: string, params?: Record<string, string | number>) => i18n.t(key, params);
const check = (ok: boolean, key: string, params?: Record<string, string | number>) =>
  ok ? Promise.resolve() : Promise.reject(new Error(t(key, params)));

/** The tenant's password rules, as its runtime configuration carries them (none: the registration rule). */
export const passwordRules = (): PasswordRules => runtimeConfig().passwordRules ?? DEFAULT_PASSWORD_RULES;

const isDefault = (r: PasswordRules) =>
  r.passwordMinLength === DEFAULT_PASSWORD_RULES.passwordMinLength &&
  r.passwordClasses === DEFAULT_PASSWORD_RULES.passwordClasses &&
  r.passwordNotUsername === DEFAULT_PASSWORD_RULES.passwordNotUsername;

/** Required text (null, 'null' and 'undefined' are empty, docs/product/validation.md#company), with the field's own message. */
export const required = (key: string): FormRule => ({
  validator: (_, v: unknown) => check(!isBlank(v) && !(Array.isArray(v) && v.length === 0), key),
});

/**
 * Password: 请输入密码, then 密码强度不够 below medium (when the rules ask for two classes or more),
 * then the tenant's rules (docs/product/security-policy.md#password-rules): the registration rule's
 * one sentence for the default rules, else the message of the rule broken. The server checks these
 * and the rest (history, the common-password list).
 */
export const passwordRule = (username: () => string | undefined): FormRule => ({
  validator: (_, v: string | undefined) => {
    if (!v) return check(false, 'forms.passwordRequired');
    const rules = passwordRules();
    if (rules.passwordClasses >= 2 && !isStrongEnough(v)) return check(false, 'forms.passwordWeak');
    const [problem] = checkPasswordRules(v, username(), rules);
    if (!problem) return Promise.resolve();
    if (isDefault(rules)) return check(false, 'forms.passwordRule');
    if (problem === 'tooShort' || problem === 'required')
      return check(false, 'forms.passwordTooShort', { min: rules.passwordMinLength });
    if (problem === 'missingClass') return check(false, 'forms.passwordClasses', { n: rules.passwordClasses });
    if (problem === 'containsUsername') return check(false, 'forms.passwordHasUsername');
    return check(false, 'forms.passwordKeyboardRun');
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
