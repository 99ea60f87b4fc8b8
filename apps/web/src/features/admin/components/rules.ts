/** Form rules of the console, over the contracts' patterns (the server checks the same). */
import { isValidPhone } from '@portal/contracts';
import type { FormRule } from 'antd';
import { runtimeConfig } from '../../../lib/config';
import { i18n } from '../../../lib/i18n';

const t = i18n.t;

export const requiredText = (key: string): FormRule => ({ required: true, whitespace: true, message: t(key) });
export const maxLength = (max: number): FormRule => ({ max, message: t('admin.tooLong', { max }) });
export const pattern = (source: string, key: string): FormRule => ({ pattern: new RegExp(source), message: t(key) });

/** A mobile number, when one is given (docs/product/validation.md#mobile rule). */
export const optionalMobile: FormRule = {
  validator: (_, v: string | undefined) =>
    !v?.trim() || isValidPhone(v.trim(), runtimeConfig().phonePattern)
      ? Promise.resolve()
      : Promise.reject(new Error(t('forms.mobileInvalid'))),
};

/** An http(s) address, when one is given. */
export const optionalUrl: FormRule = {
  validator: (_, v: string | undefined) =>
    !v?.trim() || /^https?:\/\/\S+$/i.test(v.trim())
      ? Promise.resolve()
      : Promise.reject(new Error(t('admin.urlInvalid'))),
};

/**
 * A sign-on service's address: an http(s) URL (a pattern may end in `*`), or one beginning with the
 * portal's or the server's own placeholder (`{PORTAL}`, `{PORTAL_SLO}`, `{SERVER}`), as the server
 * checks it.
 */
const SERVICE_ADDRESS = /^(?:https?:\/\/[^\s"'<>\\@]+|\{(?:PORTAL|PORTAL_SLO|SERVER)\}[^\s"'<>\\]*)$/;
export const serviceAddress = (optional: boolean): FormRule => ({
  validator: (_, v: string | undefined) =>
    (optional && !v?.trim()) || SERVICE_ADDRESS.test(v?.trim() ?? '')
      ? Promise.resolve()
      : Promise.reject(new Error(t('admin.signOn.addressInvalid'))),
});
