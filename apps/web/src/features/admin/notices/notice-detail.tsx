/**
 * One notice for its publishers: what was sent, to whom, and each recipient's state (unread, read,
 * confirmed, replied with the reply and its files), filtered by state and name, exported as CSV;
 * withdrawing it from here too.
 */
import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { AdminNotice, FileLink, NoticeRecipient, RecipientState } from '@portal/contracts';
import { Button, Descriptions, Input, Segmented, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { Failed, QueryTable, TAG, Toolbar } from '../components/console';
import { CSV_TYPE, saveFile } from '../components/save-file';
import { exportRecipients, useNoticeDetail, useRecipients } from './api';
import { Clipped, minutes, useAudienceText, useTitleOf } from './parts';
import { safeHtml } from './publish-drawer';

type Filter = RecipientState | 'all';
const STATE_COLOR: Record<RecipientState, string> = {
  unread: 'default',
  read: TAG.waiting,
  confirmed: TAG.good,
  replied: TAG.good,
};

function Files({ files }: { files: FileLink[] }) {
  if (files.length === 0) return <>-</>;
  return (
    <Space direction="vertical" size={0}>
      {files.map((f) => (
        <a
          key={f.addr}
          href={f.url}
          download={f.fileName}
          rel="noopener noreferrer"
          title={f.fileName}
          className="notice-cell"
        >
          {f.fileName}
        </a>
      ))}
    </Space>
  );
}

export function NoticeDetail({
  id,
  onBack,
  onWithdraw,
}: {
  id: string;
  onBack: () => void;
  onWithdraw: (n: AdminNotice) => void;
}) {
  const { t, i18n } = useTranslation();
  const english = i18n.language.startsWith('en');
  const titleOf = useTitleOf();
  const notice = useNoticeDetail(id);
  const { page, pagination, toFirst } = usePaging();
  const [state, setState] = useState<Filter>('all');
  const [q, setQ] = useState('');
  const filter = { state: state === 'all' ? undefined : state, q: q || undefined };
  const recipients = useRecipients(id, { page: page.current, limit: page.size, ...filter });
  const [exporting, setExporting] = useState(false);
  const audienceText = useAudienceText();
  const n = notice.data;

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { fileName, csv } = await exportRecipients(id, filter);
      saveFile(fileName, csv, CSV_TYPE);
      toast('success', t('consoleNotices.exported', { name: fileName }));
    } catch {
      // The client's handler has shown the server's message.
    } finally {
      setExporting(false);
    }
  };

  const columns: ColumnsType<NoticeRecipient> = [
    {
      title: t('consoleNotices.name'),
      key: 'name',
      width: 180,
      render: (_, r) => (
        <>
          <Clipped text={r.name} />
          <div className="admin-secondary notice-cell" title={r.username}>
            {r.username}
          </div>
        </>
      ),
    },
    {
      title: t('consoleNotices.state'),
      dataIndex: 'state',
      width: 100,
      render: (v: RecipientState) => <Tag color={STATE_COLOR[v]}>{t(`consoleNotices.recipientStates.${v}`)}</Tag>,
    },
    {
      title: t('consoleNotices.readTime'),
      dataIndex: 'readTime',
      width: 150,
      render: (v: string | null) => minutes(v),
    },
    {
      title: t('consoleNotices.replyTime'),
      dataIndex: 'replyTime',
      width: 150,
      render: (v: string | null) => minutes(v),
    },
    {
      title: t('consoleNotices.reply'),
      dataIndex: 'replyContent',
      width: 260,
      render: (v: string | null) => (v ? <Clipped text={v} /> : '-'),
    },
    {
      title: t('consoleNotices.replyFiles'),
      dataIndex: 'replyFile',
      width: 200,
      render: (v: FileLink[]) => <Files files={v} />,
    },
  ];

  return (
    <>
      <Toolbar
        filters={
          <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
            {t('consoleNotices.back')}
          </Button>
        }
        actions={
          n && !n.withdrawnAt ? (
            <Button danger onClick={() => onWithdraw(n)}>
              {t('consoleNotices.withdraw')}
            </Button>
          ) : null
        }
      />
      {notice.isError && notice.error ? <Failed error={notice.error} retry={() => void notice.refetch()} /> : null}
      {n ? (
        <>
          <Typography.Title level={4} className="notice-cell" title={titleOf(n)} style={{ margin: 0 }}>
            {titleOf(n)}
            {n.withdrawnAt ? (
              <Tag color={TAG.bad} style={{ marginInlineStart: 8, verticalAlign: 'middle' }}>
                {t('consoleNotices.withdrawnTag')}
              </Tag>
            ) : null}
          </Typography.Title>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 1, md: 2 }}
            styles={{ label: { whiteSpace: 'nowrap' } }}
            items={[
              { key: 'time', label: t('consoleNotices.pushTime'), children: minutes(n.pushTime) },
              { key: 'sender', label: t('consoleNotices.sender'), children: n.sender ?? t('consoleNotices.system') },
              { key: 'audience', label: t('consoleNotices.audience'), children: audienceText(n.audience) },
              {
                key: 'validity',
                label: t('consoleNotices.validity'),
                children: n.validityTime ? minutes(n.validityTime) : t('consoleNotices.noLimit'),
              },
              {
                key: 'way',
                label: t('consoleNotices.replyWay'),
                children: t(`consoleNotices.replyWays.${n.replyWay}`),
              },
              {
                key: 'state',
                label: t('consoleNotices.state'),
                children: n.withdrawnAt
                  ? t('consoleNotices.withdrawnAt', { time: minutes(n.withdrawnAt), name: n.withdrawnBy ?? '-' })
                  : t('consoleNotices.standing'),
              },
              ...(n.titleEn
                ? [
                    english
                      ? { key: 'zh', label: t('consoleNotices.titleZh'), children: n.title, span: 2 }
                      : { key: 'en', label: t('consoleNotices.titleEn'), children: n.titleEn, span: 2 },
                  ]
                : []),
              {
                key: 'body',
                label: t('consoleNotices.body'),
                span: 2,
                children: (
                  <div
                    className="notice-detail-body"
                    dangerouslySetInnerHTML={{ __html: safeHtml(english && n.remarkEn ? n.remarkEn : n.remark) }}
                  />
                ),
              },
              ...(n.pushFile.length
                ? [
                    {
                      key: 'files',
                      label: t('consoleNotices.attachments'),
                      span: 2,
                      children: <Files files={n.pushFile} />,
                    },
                  ]
                : []),
            ]}
          />
          <Typography.Title level={5} style={{ margin: '8px 0 0' }}>
            {t('consoleNotices.recipients')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('consoleNotices.counts', {
              all: n.recipients,
              read: n.read,
              confirmed: n.confirmed,
              replied: n.replied,
            })}
          </Typography.Text>
        </>
      ) : null}
      <Toolbar
        filters={
          <>
            <Segmented<Filter>
              aria-label={t('consoleNotices.recipients')}
              value={state}
              options={(['all', 'unread', 'read', 'confirmed', 'replied'] as const).map((s) => ({
                value: s,
                label: t(`consoleNotices.recipientStates.${s}`),
              }))}
              onChange={(v) => {
                setState(v);
                toFirst();
              }}
            />
            <Input.Search
              allowClear
              aria-label={t('consoleNotices.searchName')}
              placeholder={t('consoleNotices.searchName')}
              onSearch={(v) => {
                setQ(v.trim());
                toFirst();
              }}
            />
          </>
        }
        actions={
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
            {t('consoleNotices.export')}
          </Button>
        }
      />
      <QueryTable<NoticeRecipient & { id: string }>
        query={recipients}
        columns={columns as ColumnsType<NoticeRecipient & { id: string }>}
        dataSource={recipients.data?.records.map((r) => ({ ...r, id: r.userId }))}
        pagination={pagination(recipients.data?.total ?? 0)}
        tableLayout="fixed"
        scroll={{ x: 1040 }}
      />
    </>
  );
}
