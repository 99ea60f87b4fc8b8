import { Alert, Button } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import '../messages';

/**
 * A section's list that could not be read: the server's message and 重试 / Retry, which reads it
 * again (the 账户安全 sections: my sessions, my login history). Nothing while the query is fine.
 */
export function LoadError({
  query,
}: {
  query: { isError: boolean; error: { message: string } | null; refetch: () => Promise<unknown> };
}) {
  const { t } = useTranslation();
  if (!query.isError) return null;
  return (
    <Alert
      type="error"
      showIcon
      message={query.error?.message}
      action={<Button onClick={() => void query.refetch()}>{t('security.retry')}</Button>}
    />
  );
}
