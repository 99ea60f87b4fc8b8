import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../lib/config';
import { setLocale } from '../lib/i18n';

/** zh ⇄ en, when the runtime configuration enables the language switch (spec §1). */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  if (!runtimeConfig().languageSwitch) return null;
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      onClick={() => setLocale(i18n.language === 'en-US' ? 'zh-CN' : 'en-US')}
    >
      {t('shell.language')}
    </Button>
  );
}
