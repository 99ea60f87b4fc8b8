/** What the notices list and a notice's detail share. */
import type { AudienceView } from '@portal/contracts';
import { Typography } from 'antd';
import { useTranslation } from '../../../lib/i18n';

/** `YYYY-MM-DD HH:mm` of the server's China time. */
export const minutes = (time: string | null | undefined) => (time ? time.slice(0, 16) : '-');

/** Whom a notice went to, in words: the kind, and the names it named. */
export function useAudienceText() {
  const { t } = useTranslation();
  return (a: AudienceView) => {
    const kind = t(`consoleNotices.kinds.${a.kind}`);
    if (a.kind === 'tenant') return kind;
    const names = a.names
      .slice(0, 3)
      .map((n) => n.name)
      .join(t('consoleNotices.comma'));
    const more = a.names.length > 3 ? ` ${t('consoleNotices.more', { count: a.names.length })}` : '';
    return t('consoleNotices.audienceOf', { kind, names: names + more });
  };
}

/** A notice's title in the reader's language: its English when it has one and English is read (ADR 020). */
export function useTitleOf() {
  const { i18n } = useTranslation();
  const english = i18n.language.startsWith('en');
  return (n: { title: string; titleEn: string }) => (english && n.titleEn ? n.titleEn : n.title);
}

/** A cell that keeps to one line, its whole text in a tooltip. */
export function Clipped({ text }: { text: string }) {
  return (
    <Typography.Text ellipsis={{ tooltip: text }} className="notice-cell">
      {text}
    </Typography.Text>
  );
}
