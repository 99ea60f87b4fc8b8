/**
 * zh-CN (default) and en-US. The choice is kept in storage; antd's locale follows it, and every API
 * call carries `language` = `eng` or `zh_CN` (docs/product/calls.md#language). Chinese, the default
 * and the fallback, is in the bundle; English is a chunk of its own, loaded before the first render
 * when it is the language (main.tsx) or when the switch asks for it, so no page weighs both.
 *
 * Our own small translator rather than i18next: the portal needs nested keys, `{{name}}`
 * placeholders and a language switch, nothing more, and i18next with react-i18next was 18 KB gzip
 * of the login page (ADR 009).
 */
import { useMemo, useSyncExternalStore } from 'react';
import zhCN from '../locales/zh-CN';
import { runtimeConfig } from './config';
import { storage } from './storage';

export type Locale = 'zh-CN' | 'en-US';
export type TranslateParams = Record<string, string | number>;
export type Translate = (key: string, params?: TranslateParams) => string;

type Dictionary = Record<string, Record<string, unknown> | undefined>;

// English starts with what lazily loaded features add to it (addMessages) and gets the main
// dictionary from its chunk.
const RESOURCES: Record<Locale, Dictionary> = { 'zh-CN': zhCN as unknown as Dictionary, 'en-US': {} };
const loaded = new Set<Locale>(['zh-CN']);
let loading: Promise<void> | null = null;

/** Loads English's main dictionary once (Chinese is always there); a failed load leaves Chinese. */
export function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return Promise.resolve();
  loading ??= import('../locales/en-US').then(
    ({ default: messages }) => {
      const all = RESOURCES['en-US'];
      for (const [namespace, texts] of Object.entries(messages)) all[namespace] = { ...texts, ...all[namespace] };
      loaded.add('en-US');
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

let language: Locale = 'zh-CN';
const listeners = new Set<() => void>();

function lookup(messages: Dictionary, key: string): string | null {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : null;
}

/** `key` in `locale` (else in Chinese, else the key itself), with `{{name}}` replaced in one pass. */
export function translate(locale: Locale, key: string, params?: TranslateParams): string {
  const text = lookup(RESOURCES[locale], key) ?? lookup(RESOURCES['zh-CN'], key) ?? key;
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * Texts a lazily loaded feature brings in its own chunk (its namespace, in both languages), so the
 * login page and the first screen do not carry them: added when the chunk is evaluated, before any
 * of its components renders. Keys already in the namespace stay unless the feature gives them too.
 */
export function addMessages(namespace: string, messages: Record<Locale, Record<string, unknown>>): void {
  for (const locale of Object.keys(messages) as Locale[]) {
    const all = RESOURCES[locale];
    all[namespace] = { ...all[namespace], ...messages[locale] };
  }
}

/** The current language and a translator for it, outside React (API client, failure handler). */
export const i18n = {
  get language(): Locale {
    return language;
  },
  t: ((key, params) => translate(language, key, params)) as Translate,
};

export function currentLocale(): Locale {
  const stored = storage.get<string>('locale');
  if (stored === 'en' || stored === 'en-US') return 'en-US';
  if (stored === 'zh' || stored === 'zh-CN') return 'zh-CN';
  return runtimeConfig().defaultLocale;
}

export function apiLanguage(): 'eng' | 'zh_CN' {
  return language === 'en-US' ? 'eng' : 'zh_CN';
}

/**
 * Keeps the choice and switches to it: at once when its dictionary is loaded, else once it is
 * (unless another choice came meanwhile), so no text shows as its key.
 */
export function setLocale(locale: Locale): void {
  storage.set('locale', locale === 'en-US' ? 'en' : 'zh');
  if (loaded.has(locale)) switchTo(locale);
  else
    void loadLocale(locale).then(() => {
      if (currentLocale() === locale) switchTo(locale);
    });
}

function switchTo(locale: Locale): void {
  language = locale;
  document.documentElement.lang = locale;
  for (const l of listeners) l();
}

/** The stored language, with its dictionary: main.tsx renders once this resolves. */
export function initI18n(): Promise<void> {
  language = currentLocale();
  document.documentElement.lang = language;
  return loadLocale(language);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** `t` for the current language; components re-render when it changes. */
export function useTranslation(): { t: Translate; i18n: { language: Locale } } {
  const current = useSyncExternalStore(subscribe, () => language);
  return useMemo(
    () => ({
      t: (key: string, params?: TranslateParams) => translate(current, key, params),
      i18n: { language: current },
    }),
    [current],
  );
}
