import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { SvgIcon } from '../components/svg-icon';
import { runtimeConfig } from '../lib/config';
import { confirm } from '../lib/feedback';
import { setLocale, useTranslation } from '../lib/i18n';
import { currentPath, loginUrl } from '../lib/session';

/**
 * zh ⇄ en, when the runtime configuration enables the language switch (docs/product/overview.md#runtime-switches, docs/product/behaviour.md#language). Inside the
 * shell it asks first and reloads through the login back-address, so every page, menu and cached
 * answer comes back in the new language; on the login page there is nothing to lose, so it
 * switches in place. A plain button (styles.css), so the login page carries no antd.
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
    confirm({
      title: t('shell.languageConfirm'),
      onOk: () => {
        setLocale(next);
        window.location.replace(loginUrl(currentPath()));
      },
    });
  };
  return (
    <button type="button" className="language-toggle" onClick={onClick} lang={next}>
      <SvgIcon icon={GlobalOutlined} />
      {t('shell.language')}
    </button>
  );
}
