/**
 * antd's theme and locale, for the parts of the portal that use antd (the shell, registration,
 * the password pages, dialogs and notices). The login page uses none of it: it loads this module
 * only when a notice or a captcha dialog needs antd, so its bytes stay out of the first page.
 */
import '@ant-design/v5-patch-for-react-19';
import { ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { i18n, useTranslation } from './i18n';

// Primary and secondary text dark enough for WCAG AA contrast (4.5:1) on white and on the
// primary's light tint, where antd's defaults (#1677ff, 45 % black) fall short.
const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    colorLink: '#0958d9',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    borderRadius: 6,
  },
};

// A reader who asked their system for less motion (prefers-reduced-motion) gets antd's dialogs,
// drawers, menus and messages without their opening and closing animations, and buttons without
// the ripple of a click. Read when a provider renders: a change of the setting applies from then on.
const STILL_THEME: ThemeConfig = { ...theme, token: { ...theme.token, motion: false } };
const NO_WAVE = { disabled: true };
const stillWanted = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const motionProps = () => (stillWanted() ? { theme: STILL_THEME, wave: NO_WAVE } : { theme });

const antdLocale = () => (i18n.language === 'en-US' ? enUS : zhCN);

// message, Modal.confirm and notification are called as static methods (no <App> wrapper, which
// would put every one of them into every page's bytes); they get the same theme and locale.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={antdLocale()} {...motionProps()}>
      {children}
    </ConfigProvider>
  ),
});

/** The theme and locale around a part of the page that uses antd. */
export function AntdProvider({ children }: { children: ReactNode }) {
  useTranslation(); // re-render on a language change
  return (
    <ConfigProvider locale={antdLocale()} {...motionProps()}>
      {children}
    </ConfigProvider>
  );
}
