import { useEffect } from 'react';
import { runtimeConfig } from './config';
import { useTranslation, type Locale } from './i18n';

/** The site's name in `locale` (runtime `siteName`, `siteNameEn`): the Chinese one when no English is set. */
export function siteName(locale: Locale): string {
  const cfg = runtimeConfig();
  return (locale === 'en-US' && cfg.siteNameEn) || cfg.siteName;
}

/** The site's name in the current language; re-renders when the language changes. */
export function useSiteName(): string {
  return siteName(useTranslation().i18n.language);
}

/** The browser's title: the page's, then the site's (`成员列表 - 企业服务门户`), or the site's alone. */
export function useDocumentTitle(page?: string | null): void {
  const site = useSiteName();
  useEffect(() => {
    document.title = page ? `${page} - ${site}` : site;
  }, [page, site]);
}
