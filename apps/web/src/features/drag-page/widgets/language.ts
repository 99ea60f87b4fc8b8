import { localText, type LocalText } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';

/** The page's texts in the portal's language (English ones where the operator gave them). */
export function useLocalText(): (t: LocalText | undefined) => string {
  const { language } = useTranslation().i18n;
  const lang = language === 'en-US' ? 'en' : 'zh';
  return (t) => localText(t, lang);
}
