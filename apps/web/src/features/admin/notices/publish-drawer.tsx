/**
 * Publishing a notice: title and body (and, optionally, their English), how members answer it,
 * attachments, its validity and its audience (the whole tenant, roles, enterprises or named users
 * of the caller's tenant), with a preview of the notice as a member sees it.
 */
import { UploadOutlined } from '@ant-design/icons';
import type { AudienceChoice, FileRef, PublishNotice } from '@portal/contracts';
import { Button, Drawer, Form, Input, Radio, Segmented, Select, Space, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd/es/upload';
import DOMPurify from 'dompurify';
import { useDeferredValue, useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { FormDrawer, usePhone } from '../components/console';
import { useChange } from '../api/admin';
import { publishNotice, uploadAttachment, useAudienceChoices } from './api';

type Kind = 'tenant' | 'role' | 'enterprise' | 'users';
interface Values {
  title: string;
  titleEn?: string;
  body: string;
  bodyEn?: string;
  replyWay: 0 | 1 | 2;
  validity?: string;
  kind: Kind;
  ids?: string[];
}

const escape = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The body as HTML: text with tags is taken as HTML; plain text becomes paragraphs (a blank line
 * between them) with its line breaks kept. The server sanitises either when it stores it.
 */
export function bodyHtml(text: string): string {
  const trimmed = text.trim();
  if (/<[a-z][\s\S]*>/i.test(trimmed)) return trimmed;
  return trimmed
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${escape(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** HTML as the member's drawer shows it: sanitised again in the browser. */
export const safeHtml = (html: string) =>
  DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'svg', 'math'],
    FORBID_ATTR: ['style'],
  });

/** `datetime-local`'s value (the reader's local time) as ISO 8601 with its offset. */
const isoOf = (local: string) => new Date(local).toISOString();

export function PublishDrawer({
  open,
  onClose,
  onPublished,
}: {
  open: boolean;
  onClose: () => void;
  onPublished: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useChange();
  const [files, setFiles] = useState<UploadFile<FileRef>[]>([]);
  const [preview, setPreview] = useState<Values | null>(null);
  const kind = Form.useWatch('kind', form) ?? 'tenant';

  const bodyOf = (v: Values): PublishNotice => {
    const en = { title: v.titleEn?.trim() || undefined, remark: v.bodyEn?.trim() ? bodyHtml(v.bodyEn) : undefined };
    return {
      title: v.title.trim(),
      remark: bodyHtml(v.body),
      replyWay: v.replyWay,
      validityTime: v.validity ? isoOf(v.validity) : null,
      audience: v.kind === 'tenant' ? { kind: 'tenant' } : { kind: v.kind, ids: (v.ids ?? []).map(Number) },
      pushFile: files.filter((f) => f.status === 'done' && f.response).map((f) => f.response!),
      ...(en.title || en.remark ? { translations: { en } } : {}),
    };
  };

  const publish = async (v: Values) => {
    const done = await run(() => publishNotice(bodyOf(v)));
    if (done) {
      toast('success', t('consoleNotices.published', { count: done.value.recipients }));
      form.resetFields();
      setFiles([]);
      onPublished();
    }
  };

  return (
    <FormDrawer
      open={open}
      title={t('consoleNotices.publish')}
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
      saveText={t('consoleNotices.publish')}
      width={720}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ replyWay: 0, kind: 'tenant' }}
        onFinish={(v) => void publish(v)}
        requiredMark
      >
        <Form.Item
          name="title"
          label={t('consoleNotices.title')}
          rules={[{ required: true, whitespace: true, message: t('consoleNotices.titleRequired') }, { max: 200 }]}
        >
          <Input maxLength={200} showCount />
        </Form.Item>
        <Form.Item name="titleEn" label={t('consoleNotices.titleEn')} rules={[{ max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="body"
          label={t('consoleNotices.body')}
          extra={t('consoleNotices.bodyHelp')}
          rules={[{ required: true, whitespace: true, message: t('consoleNotices.bodyRequired') }, { max: 50_000 }]}
        >
          <Input.TextArea rows={6} />
        </Form.Item>
        <Form.Item name="bodyEn" label={t('consoleNotices.bodyEn')} rules={[{ max: 50_000 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="replyWay" label={t('consoleNotices.replyWay')} rules={[{ required: true }]}>
          <Radio.Group
            options={([0, 1, 2] as const).map((w) => ({ value: w, label: t(`consoleNotices.replyWays.${w}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('consoleNotices.attachments')} extra={t('consoleNotices.uploadHint')}>
          <Upload<FileRef>
            fileList={files}
            maxCount={10}
            multiple
            customRequest={({ file, onSuccess, onError }) => {
              const f = file as File;
              uploadAttachment(f).then(
                (addr) => onSuccess?.({ addr, fileName: f.name }),
                (err: Error) => onError?.(err),
              );
            }}
            onChange={({ fileList }) =>
              setFiles(fileList.map((f) => (f.status === 'error' ? { ...f, response: undefined, error: f.error } : f)))
            }
          >
            <Button icon={<UploadOutlined />}>{t('consoleNotices.upload')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="validity"
          label={t('consoleNotices.validity')}
          extra={t('consoleNotices.validityHelp')}
          rules={[
            {
              validator: (_, v?: string) =>
                !v || new Date(v).getTime() > Date.now()
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('consoleNotices.validityPast'))),
            },
          ]}
        >
          <Input type="datetime-local" aria-label={t('consoleNotices.validity')} />
        </Form.Item>
        <Form.Item label={t('consoleNotices.audience')} required>
          <div className="notice-audience-row">
            <Form.Item name="kind" noStyle>
              <Segmented<Kind>
                aria-label={t('consoleNotices.audience')}
                options={(['tenant', 'role', 'enterprise', 'users'] as const).map((k) => ({
                  value: k,
                  label: t(`consoleNotices.kinds.${k}`),
                }))}
                onChange={() => form.setFieldValue('ids', [])}
              />
            </Form.Item>
            {kind !== 'tenant' ? (
              <Form.Item
                name="ids"
                noStyle
                rules={[{ required: true, type: 'array', min: 1, message: t('consoleNotices.audienceRequired') }]}
              >
                <AudienceSelect kind={kind} />
              </Form.Item>
            ) : null}
          </div>
          {kind !== 'tenant' ? (
            <Form.Item shouldUpdate noStyle>
              {() => {
                const errors = form.getFieldError('ids');
                return errors.length ? <Typography.Text type="danger">{errors[0]}</Typography.Text> : null;
              }}
            </Form.Item>
          ) : null}
        </Form.Item>
        <Button onClick={() => setPreview(form.getFieldsValue(true) as Values)}>{t('consoleNotices.preview')}</Button>
      </Form>
      <Preview values={preview} files={files} onClose={() => setPreview(null)} />
    </FormDrawer>
  );
}

/** Roles, enterprises or users of the caller's tenant, several at once, found by name as one types. */
function AudienceSelect({
  kind,
  value,
  onChange,
}: {
  kind: 'role' | 'enterprise' | 'users';
  value?: string[];
  onChange?: (v: string[]) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const found = useAudienceChoices(kind, q, true);
  const [known, setKnown] = useState<Map<string, AudienceChoice>>(new Map());
  const options = useMemo(() => {
    const all = new Map(known);
    for (const c of found.data ?? []) all.set(c.id, c);
    return [...all.values()].map((c) => ({
      value: c.id,
      label: c.detail && c.detail !== c.name ? `${c.name}（${c.detail}）` : c.name,
    }));
  }, [known, found.data]);
  return (
    <Select<string[]>
      mode="multiple"
      allowClear
      showSearch
      filterOption={false}
      onSearch={setSearch}
      loading={found.isFetching}
      aria-label={t('consoleNotices.pick', { kind: t(`consoleNotices.kinds.${kind}`) })}
      placeholder={t('consoleNotices.pickSearch')}
      notFoundContent={found.isFetching ? t('admin.loading') : t('admin.none')}
      options={options}
      value={value}
      onChange={(v) => {
        // Keep the names of those chosen, which a later search may not list.
        setKnown(
          (m) => new Map([...m, ...(found.data ?? []).filter((c) => v.includes(c.id)).map((c) => [c.id, c] as const)]),
        );
        onChange?.(v);
      }}
    />
  );
}

/** The notice as the member's drawer shows it, in either language; its buttons do nothing. */
function Preview({
  values,
  files,
  onClose,
}: {
  values: Values | null;
  files: UploadFile<FileRef>[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const [lang, setLang] = useState<'zh' | 'en'>(i18n.language.startsWith('en') ? 'en' : 'zh');
  if (!values) return null;
  const title = (lang === 'en' && values.titleEn?.trim()) || values.title?.trim() || t('consoleNotices.previewEmpty');
  const body = (lang === 'en' && values.bodyEn?.trim()) || values.body || '';
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const names = files.filter((f) => f.status === 'done').map((f) => f.name);
  return (
    <Drawer
      open
      onClose={onClose}
      width={phone ? '100%' : 700}
      title={title}
      className="notice-drawer notice-preview"
      extra={
        <Segmented<'zh' | 'en'>
          aria-label={t('consoleNotices.previewLang')}
          size="small"
          value={lang}
          onChange={setLang}
          options={[
            { value: 'zh', label: '中文' },
            { value: 'en', label: 'English' },
          ]}
        />
      }
    >
      <Typography.Text type="secondary" className="notice-preview-time">
        {t('consoleNotices.previewTitle')} · {stamp}
        {values.validity ? ` · ${t('consoleNotices.validity')} ${values.validity.replace('T', ' ')}` : ''}
      </Typography.Text>
      {body.trim() ? (
        <div className="notice-preview-body" dangerouslySetInnerHTML={{ __html: safeHtml(bodyHtml(body)) }} />
      ) : (
        <Typography.Text type="secondary">{t('consoleNotices.previewEmpty')}</Typography.Text>
      )}
      {names.length ? (
        <p>
          <Typography.Text strong>{t('consoleNotices.attachments')}</Typography.Text>{' '}
          {names.join(t('consoleNotices.comma'))}
        </p>
      ) : null}
      <div className="notice-preview-answer">
        {values.replyWay === 0 ? (
          <Button type="primary" disabled>
            {t('consoleNotices.confirmBtn')}
          </Button>
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Input.TextArea rows={3} disabled placeholder={t('consoleNotices.replyPlaceholder')} />
            {values.replyWay === 2 ? (
              <Button icon={<UploadOutlined />} disabled>
                {t('consoleNotices.upload')}
              </Button>
            ) : null}
            <Button type="primary" disabled>
              {t('consoleNotices.replyBtn')}
            </Button>
          </Space>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('consoleNotices.previewNote')}
        </Typography.Paragraph>
      </div>
    </Drawer>
  );
}
