import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { runtimeConfig } from '../lib/config';
import { setLocale, useTranslation } from '../lib/i18n';
import { currentPath, loginUrl } from '../lib/session';

/**
 * zh ⇄ en, when the runtime configuration enables the language switch (spec §1, §4). Inside the
 * shell it asks first and reloads through the login back-address, so every page, menu and cached
 * answer comes back in the new language; on the login page there is nothing to lose, so it
 * switches in place.
 */
export function LanguageToggle({ reload = false }: { reload?: boolean }) {
  const { t, i18n } = useTranslation();
  if (!runtimeConfig().languageSwitch) return null;
  const next = i18n.language === 'en-US' ? 'zh-CN' : 'en-US';
  const onClick = () => {
    if (!reload) {
      setLocale(next);
      return;
    }
    void import('antd/es/modal').then(({ default: Modal }) =>
      Modal.confirm({
        title: t('shell.languageConfirm'),
        onOk: () => {
          setLocale(next);
          window.location.replace(loginUrl(currentPath()));
        },
      }),
    );
  };
  return (
    <Button type="text" icon={<GlobalOutlined />} onClick={onClick} lang={next}>
      {t('shell.language')}
    </Button>
  );
}
