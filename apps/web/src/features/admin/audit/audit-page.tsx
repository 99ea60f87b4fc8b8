/**
 * 审计日志 (menu component `admin/audit`): what was done in the tenant, newest first, as sentences
 * in the reader's language naming who did what to which object (ADR 044: built here from the row's
 * code, object and changes by the contracts' `auditSentence`, as the CSV export builds them).
 * Filtered by who (username or name), what (an action of the audit catalogue, chosen by its label),
 * which object (its kind, and its name or id) and when (days, China time); an entry opens to what
 * changed, field by field, or, for an entry written before entries named their objects, to what
 * its request carried. 导出 CSV exports what the filters match (at most AUDIT_EXPORT_MAX entries).
 */
import {
  AUDIT_ACTION_CODES,
  AUDIT_EXPORT_MAX,
  AUDIT_SUBJECT_TYPE_CODES,
  auditFieldLabel,
  auditLabel,
  auditNameIn,
  auditSentence,
  auditSubjectTypeLabel,
  auditValueText,
  isAuditAction,
  type AuditChange,
  type AuditEntry,
  type AuditExport,
  type AuditQuery,
} from '@portal/contracts';
import { Button, Form, Input, Select, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { adminCall, usePaged } from '../api/admin';
import { ConsolePage, formatTime, QueryTable } from '../components/console';
import { CSV_TYPE, saveFile } from '../components/save-file';

interface Filter {
  actor?: string;
  action?: string;
  objectType?: string;
  object?: string;
  from?: string;
  to?: string;
}
type Lang = 'zh' | 'en';

/** What an entry written before entries named their objects carried: its request, as `key: value` lines. */
function requestLines(detail: Record<string, unknown> | null): [string, string][] {
  const lines: [string, string][] = [];
  const walk = (value: unknown, path: string) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    } else {
      lines.push([path, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
  };
  walk(detail ?? {}, '');
  return lines;
}

function Changes({ entry, lang }: { entry: AuditEntry; lang: Lang }) {
  const { t } = useTranslation();
  const rows = entry.changes as AuditChange[];
  const subject = entry.subject;
  return (
    <div className="admin-audit-detail">
      {subject ? (
        <p className="admin-audit-subject">
          {t('admin.audit.subject', {
            type: auditSubjectTypeLabel(subject.type, lang),
            name: auditNameIn(subject, lang) + (subject.username ? ` (${subject.username})` : ''),
            id: subject.id,
          })}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <Table<AuditChange>
          size="small"
          pagination={false}
          rowKey="field"
          tableLayout="auto"
          dataSource={rows}
          columns={[
            { title: t('admin.audit.field'), dataIndex: 'field', render: (f: string) => auditFieldLabel(f, lang) },
            {
              title: t('admin.audit.before'),
              render: (_: unknown, c) => ('from' in c ? auditValueText(c.field, c.from, lang) : '—'),
            },
            {
              title: t('admin.audit.after'),
              render: (_: unknown, c) => ('to' in c ? auditValueText(c.field, c.to, lang) : '—'),
            },
          ]}
        />
      ) : subject ? (
        <p className="admin-secondary">{t('admin.audit.nothingChanged')}</p>
      ) : (
        <>
          <p className="admin-audit-subject">{t('admin.audit.request')}</p>
          <dl className="admin-audit-request">
            {requestLines(entry.detail).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </div>
  );
}

const expandable = (e: AuditEntry) => e.changes.length > 0 || e.subject !== null || requestLines(e.detail).length > 0;

export function AuditPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Filter>({});
  const [exporting, setExporting] = useState(false);
  const [form] = Form.useForm<Filter>();
  const query: AuditQuery = { page: page.current, limit: page.size, ...filter };
  const list = usePaged<AuditEntry>('/api/admin/audit', query);
  const lang: Lang = i18n.language === 'en-US' ? 'en' : 'zh';
  const actions = useMemo(
    () => AUDIT_ACTION_CODES.map((code) => ({ value: code, label: auditLabel(code, lang) })),
    [lang],
  );
  const types = useMemo(
    () => AUDIT_SUBJECT_TYPE_CODES.map((code) => ({ value: code, label: auditSubjectTypeLabel(code, lang) })),
    [lang],
  );
  const columns: ColumnsType<AuditEntry> = [
    {
      title: t('admin.audit.at'),
      dataIndex: 'at',
      render: (v: string) => <span className="admin-nowrap">{formatTime(v, i18n.language)}</span>,
    },
    // What happened first after when: on a phone the table scrolls sideways from the left.
    {
      title: t('admin.audit.sentence'),
      key: 'sentence',
      render: (_: unknown, e) => <span className="admin-audit-sentence">{auditSentence(e, lang)}</span>,
    },
    {
      title: t('admin.audit.action'),
      dataIndex: 'action',
      render: (v: string) =>
        isAuditAction(v) ? (
          <span className="admin-audit-action" title={v}>
            {auditLabel(v, lang)}
          </span>
        ) : (
          <code>{v}</code>
        ),
    },
    {
      title: t('admin.audit.actor'),
      dataIndex: 'actor',
      render: (v: AuditEntry['actor']) =>
        v ? (
          <span className="admin-nowrap">
            {v.name}
            <div className="admin-secondary">{v.username}</div>
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: t('admin.audit.ip'),
      dataIndex: 'ip',
      render: (v: string | null) => <span className="admin-nowrap">{v ?? '-'}</span>,
    },
  ];
  const apply = (v: Filter) => {
    const clean = (s?: string) => s?.trim() || undefined;
    setFilter({
      actor: clean(v.actor),
      action: clean(v.action),
      objectType: clean(v.objectType),
      object: clean(v.object),
      from: clean(v.from),
      to: clean(v.to),
    });
    toFirst();
  };

  async function exportCsv() {
    setExporting(true);
    let file: AuditExport;
    try {
      file = await adminCall<AuditExport>('/api/admin/audit/export', { query: { ...filter } });
    } catch {
      return; // the handler showed the server's message
    } finally {
      setExporting(false);
    }
    saveFile(file.fileName, file.csv, CSV_TYPE);
    if (file.truncated) toast('warning', t('admin.audit.exportTruncated', { max: AUDIT_EXPORT_MAX }));
    else toast('success', t('admin.audit.exported', { count: file.rows }));
  }

  return (
    <ConsolePage className="admin-audit">
      <Form<Filter> form={form} layout="inline" className="admin-audit-filter" onFinish={apply}>
        <Form.Item name="actor" label={t('admin.audit.actor')}>
          <Input allowClear placeholder={t('admin.audit.actorHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="action" label={t('admin.audit.action')}>
          <Select
            allowClear
            showSearch
            placeholder={t('admin.audit.actionHint')}
            options={actions}
            optionFilterProp="label"
            popupMatchSelectWidth={false}
          />
        </Form.Item>
        <Form.Item name="objectType" label={t('admin.audit.objectType')}>
          <Select
            allowClear
            className="admin-audit-type"
            placeholder={t('admin.audit.objectTypeHint')}
            options={types}
            popupMatchSelectWidth={false}
          />
        </Form.Item>
        <Form.Item name="object" label={t('admin.audit.object')}>
          <Input allowClear placeholder={t('admin.audit.objectHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="from" label={t('admin.audit.from')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="to" label={t('admin.audit.to')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('admin.audit.apply')}
          </Button>{' '}
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            {t('admin.audit.reset')}
          </Button>{' '}
          <Tooltip title={t('admin.audit.exportHint', { max: AUDIT_EXPORT_MAX })}>
            <Button loading={exporting} onClick={() => void exportCsv()}>
              {t('admin.audit.export')}
            </Button>
          </Tooltip>
        </Form.Item>
      </Form>
      <QueryTable<AuditEntry>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
        expandable={{
          rowExpandable: expandable,
          expandedRowRender: (e) => <Changes entry={e} lang={lang} />,
        }}
      />
    </ConsolePage>
  );
}
