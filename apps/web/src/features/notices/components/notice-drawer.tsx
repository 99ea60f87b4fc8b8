import { UploadOutlined } from '@ant-design/icons';
import { isValidReplyLength, LIMITS, type FileLink, type FileRef, type Notice } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Form, Input, Skeleton, Space, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd/es/upload';
import DOMPurify from 'dompurify';
import { useEffect, useState } from 'react';
import { ownMessage } from '../../../lib/api/client';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { attachmentProblem, attachmentRules } from '../api/attachments';
import { confirmNotice, markRead, NOTICES_KEY, replyNotice, uploadReplyFile, useNotice } from '../api/notices';
import './notices.css';

// Links in a notice open a new tab that cannot reach back into the portal.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** HTML of a notice, sanitised by the server when stored and again here. */
const safeHtml = (html: string) =>
  DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'svg', 'math'],
    FORBID_ATTR: ['style'],
  });

function Files({ files }: { files: FileLink[] }) {
  if (files.length === 0) return <>-</>;
  return (
    <Space direction="vertical" size={2}>
      {files.map((f) => (
        <a key={f.addr} href={f.url} download={f.fileName} rel="noopener noreferrer">
          {f.fileName}
        </a>
      ))}
    </Space>
  );
}

/**
 * A notice in the drawer of docs/product/screens.md#notice-drawer (700 px, the whole width under 500): its body and
 * attachments, and what docs/product/behaviour.md#notice-reply lets the user do: 阅办 (replyWay 0), a text reply (1), a text reply
 * with attachments (2), or, once answered, the answer. Opening it marks it read.
 */
export function NoticeDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // docs/product/limits.md#layout: the whole width under 500 px.
  const narrow = window.innerWidth < LIMITS.drawerFullWidthBelowPx;
  const notice = useNotice(id);
  const refresh = () => client.invalidateQueries({ queryKey: NOTICES_KEY });
  const n = notice.data;
  useEffect(() => {
    if (n && n.readStatus === 0) void markRead(n.id).then(refresh, () => undefined);
    // Marked once per opened notice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [n?.id]);

  return (
    <Drawer
      open
      onClose={onClose}
      width={narrow ? '100%' : LIMITS.drawerWidth}
      title={n?.title ?? t('notices.title')}
      className="notice-drawer"
      destroyOnHidden
    >
      {notice.isPending ? (
        <Skeleton active />
      ) : !n ? (
        <Typography.Text type="danger">{notice.error?.message}</Typography.Text>
      ) : (
        <>
          <Typography.Text type="secondary" className="notice-time">
            {n.pushTime}
            {n.validityTime ? ` · ${t('notices.validUntil', { time: n.validityTime })}` : ''}
          </Typography.Text>
          <div className="notice-body" dangerouslySetInnerHTML={{ __html: safeHtml(n.remark) }} />
          {n.pushFile.length ? (
            <Descriptions
              size="small"
              column={1}
              items={[{ key: 'files', label: t('notices.attachments'), children: <Files files={n.pushFile} /> }]}
            />
          ) : null}
          <div className="notice-answer">
            <Answer notice={n} onDone={() => void refresh().then(onClose)} />
          </div>
        </>
      )}
    </Drawer>
  );
}

function Answer({ notice: n, onDone }: { notice: Notice; onDone: () => void }) {
  const { t } = useTranslation();
  const username = useSession((s) => s.userInfo?.username ?? '');
  const [pending, setPending] = useState(false);
  const [files, setFiles] = useState<UploadFile<FileRef>[]>([]);
  const rules = attachmentRules();
  // Why files were refused, each shown for 5 s (docs/product/validation.md#attachments).
  const [refused, setRefused] = useState<string[]>([]);
  const refuse = (message: string) => {
    setRefused((r) => [...r, message]);
    setTimeout(() => setRefused((r) => r.filter((x) => x !== message)), 5000);
  };
  const [form] = Form.useForm<{ content: string }>();
  const submitted = () => {
    toast('success', t('notices.success'));
    onDone();
  };
  const failed = () => toast('error', t('notices.failed'));

  if (n.answerStatus === 1) {
    if (n.replyWay === 0) return <Button disabled>{t('notices.confirmed')}</Button>;
    return (
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'content', label: t('notices.reply'), children: n.replyContent || '-' },
          { key: 'files', label: t('notices.replyFiles'), children: <Files files={n.replyFile} /> },
          { key: 'time', label: t('notices.replyTime'), children: n.replyTime ?? '-' },
        ]}
      />
    );
  }
  if (n.replyWay === 0) {
    return (
      <Button
        type="primary"
        loading={pending}
        onClick={() => {
          setPending(true);
          confirmNotice(n.id)
            .then(submitted, failed)
            .finally(() => setPending(false));
        }}
      >
        {t('notices.confirm')}
      </Button>
    );
  }
  const onFinish = ({ content }: { content: string }) => {
    setPending(true);
    const fileList = files.flatMap((f) => (f.status === 'done' && f.response ? [f.response] : []));
    replyNotice(n.id, username, content.trim(), fileList)
      .then(submitted, failed)
      .finally(() => setPending(false));
  };
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
      <Form.Item
        name="content"
        label={t('notices.reply')}
        rules={[
          {
            validator: (_, v: string | undefined) =>
              isValidReplyLength((v ?? '').trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('notices.replyLength'))),
          },
        ]}
      >
        <Input.TextArea rows={4} maxLength={LIMITS.replyMaxLength} showCount />
      </Form.Item>
      {n.replyWay === 2 ? (
        <Form.Item
          label={t('notices.replyFiles')}
          extra={t('notices.uploadHint', { types: rules.types, size: rules.size })}
        >
          <Upload<FileRef>
            fileList={files}
            accept={rules.accept}
            // A refused file leaves the list: why it was refused shows below for 5 s.
            onChange={({ fileList }) => setFiles(fileList.filter((f) => f.status !== 'error'))}
            beforeUpload={(file) => {
              const problem = attachmentProblem(file, rules);
              if (!problem) return true;
              refuse(
                problem === 'type'
                  ? t('notices.refused', { name: file.name })
                  : t('notices.tooLarge', { name: file.name, size: rules.size }),
              );
              return Upload.LIST_IGNORE;
            }}
            customRequest={({ file, onSuccess, onError }) => {
              uploadReplyFile(file as File).then(
                (ref) => onSuccess?.(ref),
                (err: unknown) => {
                  // The server's reason: the content did not match, or the file was too large.
                  refuse(ownMessage(err) ?? t('notices.failed'));
                  onError?.(err as Error);
                },
              );
            }}
          >
            <Button icon={<UploadOutlined />}>{t('notices.upload')}</Button>
          </Upload>
          {refused.map((message) => (
            <Typography.Text key={message} type="danger" className="notice-refused">
              {message}
            </Typography.Text>
          ))}
        </Form.Item>
      ) : null}
      <Button type="primary" htmlType="submit" loading={pending}>
        {t('notices.submit')}
      </Button>
    </Form>
  );
}
