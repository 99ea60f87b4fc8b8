import { Descriptions } from 'antd';
import { Result } from '../../../components/lazy-result';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { leafItems } from '../menu';
import { Panel } from './panel';
import { Shortcuts } from './shortcuts';
import './home-page.css';

/** The index page: a greeting, the user's context and shortcuts to the first menu pages. */
export function HomePage() {
  const { t } = useTranslation();
  const { userInfo, menu } = useSession();
  const items = menu?.menu ?? [];

  if (items.length === 0) {
    return <Result status="info" title={t('shell.emptyMenu')} />;
  }
  const shortcuts = leafItems(items)
    .filter((i) => !i.meta.internalOrExternal)
    .slice(0, 8);

  return (
    <div className="home">
      <Panel className="home-hero">
        <h3 className="shell-title shell-title-3">{t('shell.welcome', { name: userInfo?.name ?? '' })}</h3>
        <Descriptions column={{ xs: 1, sm: 2 }} size="small">
          <Descriptions.Item label={t('shell.tenant')}>
            {userInfo?.tenantName ?? userInfo?.tenantCode}
          </Descriptions.Item>
          <Descriptions.Item label={t('shell.group')}>{userInfo?.groupName ?? '-'}</Descriptions.Item>
        </Descriptions>
      </Panel>
      <Panel title={t('shell.quickLinks')} style={{ marginTop: 16 }}>
        <Shortcuts items={shortcuts} />
      </Panel>
    </div>
  );
}
