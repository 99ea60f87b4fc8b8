import { Button, Result } from 'antd';
import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { AntdProvider } from '../../lib/antd';

export function NotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
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
