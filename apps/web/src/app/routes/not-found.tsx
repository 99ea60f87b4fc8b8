import { Button, Result } from 'antd';
import { useTranslation } from '../../lib/i18n';
import { Outlet, useNavigate } from 'react-router';
import { useSession } from '../../lib/session';
import { AntdProvider } from '../../lib/antd';

/** /404: on its own without a session; signed in, the shell shows it (the nested routes). */
export function NotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession((s) => s.token) !== null;
  if (signedIn) return <Outlet />;
  return (
    <AntdProvider>
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('notFound.back')}
          </Button>
        }
      />
    </AntdProvider>
  );
}
