import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { i18n, useTranslation } from '../lib/i18n';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } },
});

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

const antdLocale = () => (i18n.language === 'en-US' ? enUS : zhCN);

// message, Modal.confirm and notification are called as static methods (no <App> wrapper, which
// would put every one of them into the login page's bundle); they get the same theme and locale.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={antdLocale()} theme={theme}>
      {children}
    </ConfigProvider>
  ),
});

export function Providers({ children }: { children: ReactNode }) {
  useTranslation(); // re-render on a language change
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocale()} theme={theme}>
        {children}
      </ConfigProvider>
    </QueryClientProvider>
  );
}
