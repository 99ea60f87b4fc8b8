import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } },
});

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={i18n.language === 'en-US' ? enUS : zhCN}
        // Primary and secondary text dark enough for WCAG AA contrast (4.5:1) on white and on the
        // primary's light tint, where antd's defaults (#1677ff, 45 % black) fall short.
        theme={{
          token: {
            colorPrimary: '#0958d9',
            colorInfo: '#0958d9',
            colorLink: '#0958d9',
            colorTextDescription: 'rgba(0, 0, 0, 0.65)',
            borderRadius: 6,
          },
        }}
      >
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
