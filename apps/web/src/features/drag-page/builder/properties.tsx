/**
 * The selected widget's settings. Every text has its Chinese (required) and its English (shown
 * when the portal is in English; left empty, the Chinese shows), each box labelled with its
 * language. A figure is typed in, or bound to a measure the server computes (shown live).
 */
import { PAGE_MEASURES, type LocalText, type PageMeasure, type Widget, type WidgetOf } from '@portal/contracts';
import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Empty, Input, InputNumber, Select, Space, Typography, message } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { imageAsDataUrl } from './image';

type Change = (props: Widget['props']) => void;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="pb-field">
      <div className="pb-field-label">{label}</div>
      {children}
    </div>
  );
}

/**
 * A text in Chinese and in English: each box has its own label (标题（中文）, 标题（英文）), so which is
 * which stays plain once both are filled.
 */
function TextPair({
  label,
  value,
  onChange,
  multiline = false,
}: {
  label: string;
  value: LocalText | undefined;
  onChange: (v: LocalText) => void;
  multiline?: boolean;
}) {
  const { t } = useTranslation();
  const Box = multiline ? Input.TextArea : Input;
  const rows = multiline ? { autoSize: { minRows: 3, maxRows: 8 } } : {};
  const zh = t('dragPage.inChinese', { label });
  const en = t('dragPage.inEnglish', { label });
  return (
    <div className="pb-field" role="group" aria-label={label}>
      <label className="pb-lang">
        <span className="pb-field-label">{zh}</span>
        <Box
          {...rows}
          aria-label={zh}
          value={value?.zh ?? ''}
          onChange={(e) => onChange({ ...value, zh: e.target.value })}
        />
      </label>
      <label className="pb-lang">
        <span className="pb-field-label pb-field-label-en">{en}</span>
        <Box
          {...rows}
          className="pb-en"
          aria-label={en}
          placeholder={t('dragPage.englishOptional')}
          value={value?.en ?? ''}
          onChange={(e) => {
            const { en: _, ...rest } = value ?? { zh: '' };
            onChange(e.target.value === '' ? rest : { ...rest, en: e.target.value });
          }}
        />
      </label>
    </div>
  );
}

/** A list of rows, each edited by `row`, with add and remove. */
function Rows<T>({
  label,
  items,
  max,
  blank,
  onChange,
  row,
}: {
  label: string;
  items: T[];
  max: number;
  blank: () => T;
  onChange: (items: T[]) => void;
  row: (item: T, set: (item: T) => void) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Field label={label}>
      {items.map((item, i) => (
        <div key={i} className="pb-row">
          <div className="pb-row-body">{row(item, (next) => onChange(items.map((x, j) => (j === i ? next : x))))}</div>
          <Button
            type="text"
            size="small"
            icon={<DeleteOutlined />}
            aria-label={t('dragPage.removeRow')}
            onClick={() => onChange(items.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        disabled={items.length >= max}
        onClick={() => onChange([...items, blank()])}
      >
        {t('dragPage.addRow')}
      </Button>
    </Field>
  );
}

/** Table cells as lines of text, cells split by `|`: one box per language. */
const cells = (rows: LocalText[][], lang: 'zh' | 'en') =>
  rows.map((r) => r.map((c) => c[lang] ?? '').join(' | ')).join('\n');
function parseCells(text: string, lang: 'zh' | 'en', rows: LocalText[][], columns: number): LocalText[][] {
  const lines = text === '' ? [] : text.split('\n');
  return lines.map((line, r) => {
    const parts = line.split('|').map((c) => c.trim());
    return Array.from({ length: columns }, (_, c) => ({ ...(rows[r]?.[c] ?? { zh: '' }), [lang]: parts[c] ?? '' }));
  });
}

export function Properties({
  widget,
  frameEntries,
  onChange,
}: {
  widget: Widget | null;
  /** The tenant's registered framed applications: the addresses a frame may show. */
  frameEntries: { label: string; url: string }[];
  onChange: Change;
}) {
  const { t } = useTranslation();
  if (!widget)
    return <Empty className="pb-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dragPage.pickWidget')} />;
  const set = <K extends Widget['kind']>(patch: Partial<WidgetOf<K>['props']>) =>
    onChange({ ...widget.props, ...patch } as Widget['props']);
  const title =
    'title' in widget.props ? (
      <TextPair label={t('dragPage.title')} value={widget.props.title} onChange={(title) => set({ title })} />
    ) : null;

  const body = (() => {
    switch (widget.kind) {
      case 'text':
        return (
          <TextPair multiline label={t('dragPage.text')} value={widget.props.text} onChange={(text) => set({ text })} />
        );
      case 'image':
        return (
          <>
            <Field label={t('dragPage.image')}>
              <label className="ant-btn ant-btn-default pb-upload">
                <UploadOutlined /> {t('dragPage.chooseImage')}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/gif,image/webp"
                  className="pb-file"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (!file) return;
                    imageAsDataUrl(file).then(
                      (src) => set<'image'>({ src }),
                      () => void message.error(t('dragPage.imageFailed')),
                    );
                  }}
                />
              </label>
            </Field>
            <TextPair label={t('dragPage.alt')} value={widget.props.alt} onChange={(alt) => set<'image'>({ alt })} />
            <Field label={t('dragPage.fit')}>
              <Select
                aria-label={t('dragPage.fit')}
                value={widget.props.fit}
                options={[
                  { value: 'cover', label: t('dragPage.cover') },
                  { value: 'contain', label: t('dragPage.contain') },
                ]}
                onChange={(fit) => set<'image'>({ fit })}
              />
            </Field>
          </>
        );
      case 'links':
        return (
          <Rows
            label={t('dragPage.links')}
            items={widget.props.items}
            max={24}
            blank={() => ({ title: { zh: '' }, path: '/' })}
            onChange={(items) => set<'links'>({ items })}
            row={(item, setItem) => (
              <>
                <TextPair
                  label={t('dragPage.linkTitle')}
                  value={item.title}
                  onChange={(v) => setItem({ ...item, title: v })}
                />
                <Input
                  aria-label={t('dragPage.linkPath')}
                  addonBefore={t('dragPage.linkPath')}
                  value={item.path}
                  onChange={(e) => setItem({ ...item, path: e.target.value })}
                />
              </>
            )}
          />
        );
      case 'stats':
        return (
          <Rows
            label={t('dragPage.figures')}
            items={widget.props.items}
            max={12}
            blank={(): WidgetOf<'stats'>['props']['items'][number] => ({ label: { zh: '' }, value: '0' })}
            onChange={(items) => set<'stats'>({ items })}
            row={(item, setItem) => (
              <>
                <TextPair
                  label={t('dragPage.label')}
                  value={item.label}
                  onChange={(v) => setItem({ ...item, label: v })}
                />
                <Field label={t('dragPage.source')}>
                  <Select
                    aria-label={t('dragPage.source')}
                    value={item.measure ?? ''}
                    options={[
                      { value: '', label: t('dragPage.fixedValue') },
                      ...PAGE_MEASURES.map((m) => ({ value: m, label: t(`dragPage.measures.${m}`) })),
                    ]}
                    onChange={(m: PageMeasure | '') => {
                      const { measure: _, ...rest } = item;
                      setItem(m ? { ...rest, measure: m } : rest);
                    }}
                  />
                </Field>
                {item.measure ? (
                  <Typography.Text type="secondary" className="pb-help">
                    {t('dragPage.liveHelp')}
                  </Typography.Text>
                ) : (
                  <Space.Compact block>
                    <Input
                      aria-label={t('dragPage.value')}
                      addonBefore={t('dragPage.value')}
                      value={item.value}
                      onChange={(e) => setItem({ ...item, value: e.target.value })}
                    />
                  </Space.Compact>
                )}
                <TextPair
                  label={t('dragPage.suffix')}
                  value={item.suffix}
                  onChange={(v) => setItem({ ...item, suffix: v })}
                />
              </>
            )}
          />
        );
      case 'chart':
        return (
          <>
            <Field label={t('dragPage.chartType')}>
              <Select
                aria-label={t('dragPage.chartType')}
                value={widget.props.type}
                options={(['bar', 'line', 'pie'] as const).map((v) => ({ value: v, label: t(`dragPage.chart.${v}`) }))}
                onChange={(type) => set<'chart'>({ type })}
              />
            </Field>
            <Rows
              label={t('dragPage.points')}
              items={widget.props.points}
              max={24}
              blank={() => ({ label: { zh: '' }, value: 0 })}
              onChange={(points) => set<'chart'>({ points })}
              row={(item, setItem) => (
                <>
                  <TextPair
                    label={t('dragPage.category')}
                    value={item.label}
                    onChange={(v) => setItem({ ...item, label: v })}
                  />
                  <InputNumber
                    aria-label={t('dragPage.value')}
                    addonBefore={t('dragPage.value')}
                    value={item.value}
                    onChange={(v) => setItem({ ...item, value: typeof v === 'number' ? v : 0 })}
                  />
                </>
              )}
            />
          </>
        );
      case 'table': {
        const { columns, rows } = widget.props;
        const head = (lang: 'zh' | 'en') => columns.map((c) => c[lang] ?? '').join(' | ');
        const setHead = (lang: 'zh' | 'en', text: string) => {
          const parts = text.split('|').map((c) => c.trim());
          const next = parts.slice(0, 8).map((p, i) => ({ ...(columns[i] ?? { zh: '' }), [lang]: p }));
          set<'table'>({ columns: next, rows: rows.map((r) => next.map((_, c) => r[c] ?? { zh: '' })) });
        };
        return (
          <>
            <Typography.Paragraph type="secondary" className="pb-help">
              {t('dragPage.tableHelp')}
            </Typography.Paragraph>
            {(['zh', 'en'] as const).map((lang) => (
              <Field
                key={lang}
                label={t(lang === 'zh' ? 'dragPage.inChinese' : 'dragPage.inEnglish', { label: t('dragPage.columns') })}
              >
                <Input
                  aria-label={t(lang === 'zh' ? 'dragPage.inChinese' : 'dragPage.inEnglish', {
                    label: t('dragPage.columns'),
                  })}
                  value={head(lang)}
                  onChange={(e) => setHead(lang, e.target.value)}
                />
                <Input.TextArea
                  aria-label={t(lang === 'zh' ? 'dragPage.inChinese' : 'dragPage.inEnglish', {
                    label: t('dragPage.rows'),
                  })}
                  autoSize={{ minRows: 3, maxRows: 10 }}
                  value={cells(rows, lang)}
                  onChange={(e) =>
                    set<'table'>({ rows: parseCells(e.target.value, lang, rows, columns.length).slice(0, 50) })
                  }
                />
              </Field>
            ))}
          </>
        );
      }
      case 'iframe':
        return (
          <Field label={t('dragPage.frameUrl')}>
            <Select
              aria-label={t('dragPage.frameUrl')}
              value={widget.props.url}
              options={frameEntries.map((e) => ({ value: e.url, label: `${e.label} · ${e.url}` }))}
              onChange={(url) => set<'iframe'>({ url })}
            />
          </Field>
        );
      case 'notices':
      case 'devices':
        return (
          <Field label={t('dragPage.count')}>
            <InputNumber
              aria-label={t('dragPage.count')}
              min={1}
              max={widget.kind === 'notices' ? 10 : 20}
              value={widget.props.count}
              onChange={(v) => typeof v === 'number' && set<'notices'>({ count: v })}
            />
          </Field>
        );
    }
  })();

  return (
    <div className="pb-properties">
      <Typography.Title level={5} className="pb-properties-title">
        {t(`dragPage.kinds.${widget.kind}`)}
      </Typography.Title>
      {title}
      {body}
    </div>
  );
}
