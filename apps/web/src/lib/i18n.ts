/**
 * zh-CN (default) and en-US. The choice is kept in storage; antd's locale follows it, and
 * every API call carries `language` = `eng` or `zh_CN` (spec §7).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '../locales/en-US';
import zhCN from '../locales/zh-CN';
import { runtimeConfig } from './config';
import { storage } from './storage';

export type Locale = 'zh-CN' | 'en-US';

export function currentLocale(): Locale {
  const stored = storage.get<string>('locale');
  if (stored === 'en' || stored === 'en-US') return 'en-US';
  if (stored === 'zh' || stored === 'zh-CN') return 'zh-CN';
  return runtimeConfig().defaultLocale;
}

export function apiLanguage(): 'eng' | 'zh_CN' {
  return i18n.language === 'en-US' ? 'eng' : 'zh_CN';
}

export function setLocale(locale: Locale): void {
  storage.set('locale', locale === 'en-US' ? 'en' : 'zh');
  void i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export function initI18n(): typeof i18n {
  const lng = currentLocale();
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
    lng,
    fallbackLng: 'zh-CN',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  document.documentElement.lang = lng;
  return i18n;
}

export { i18n };
