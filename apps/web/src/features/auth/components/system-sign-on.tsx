import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { messageOf } from '../../../lib/api/client';
import { systemSignOnUrl } from '../api/sign-on';

/**
 * /front/esa/system/sso?sysCode=… (docs/product/screens.md#fixed-routes): the platform's single sign-on into an external
 * system; the browser goes on to the address the server gives, or the page says why not.
 */
export function SystemSignOn({ sysCode, onBack }: { sysCode: string | null; onBack: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(sysCode ? null : t('signOn.noSystem'));
  const started = useRef(false);

  useEffect(() => {
    if (!sysCode || started.current) return;
    started.current = true;
    systemSignOnUrl(sysCode).then(
      (url) => window.location.replace(url),
      (err: unknown) => setError(messageOf(err)),
    );
  }, [sysCode]);

  if (!error) return <Spin fullscreen tip={t('signOn.enteringSystem')} />;
  return (
    <Result
      status="warning"
      title={t('signOn.systemFailed')}
      subTitle={error}
      extra={<Button onClick={onBack}>{t('notFound.back')}</Button>}
    />
  );
}
