import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { Result } from '../../../components/lazy-result';
import { useTranslation } from '../../../lib/i18n';

/** The not-found page; signed in, inside the shell, so the menu and the open tabs stay at hand. */
export function NotFoundView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
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
  );
}
