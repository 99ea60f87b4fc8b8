/**
 * 登录设备 (账户安全): the person's live sign-ins — a sign-on session with the systems it signed into,
 * or a portal sign-in — with device, address, when it began and was last active, the current one
 * marked. Any other can be ended, or all others at once; ending one signs it out everywhere.
 */
import { DesktopOutlined, MobileOutlined } from '@ant-design/icons';
import type { SignIn } from '@portal/contracts';
import { Button, List, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { useEndSignIn, useMySignIns } from '../api/security';
import { deviceText } from './device';
import { LoadError } from './load-error';
import '../messages';
import './security.css';

export function SessionsSection() {
  const { t } = useTranslation();
  const list = useMySignIns();
  const { end, endOthers } = useEndSignIn();
  const [busy, setBusy] = useState<string | null>(null);
  const [modal, holder] = Modal.useModal();
  const others = (list.data ?? []).filter((s) => !s.current);

  const run = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } catch {
      // the request's handler showed the server's message
    } finally {
      setBusy(null);
    }
  };
  const askEnd = (s: SignIn) =>
    modal.confirm({
      title: t('security.end'),
      content: t('security.endConfirm'),
      onOk: () =>
        run(s.id, async () => {
          await end(s.id);
          toast('success', t('security.ended'));
        }),
    });
  const askEndOthers = () =>
    modal.confirm({
      title: t('security.endOthers'),
      content: t('security.endOthersConfirm'),
      onOk: () =>
        run('others', async () => {
          toast('success', t('security.endedOthers', { count: await endOthers() }));
        }),
    });

  return (
    <section className="security-section" aria-labelledby="security-sessions">
      <div className="security-section-head">
        <div>
          <h5 id="security-sessions" className="security-section-title">
            {t('security.sessions')}
          </h5>
          <Typography.Text type="secondary">{t('security.sessionsHint')}</Typography.Text>
        </div>
        <Button danger disabled={others.length === 0} loading={busy === 'others'} onClick={askEndOthers}>
          {t('security.endOthers')}
        </Button>
      </div>
      <LoadError query={list} />
      <List<SignIn>
        loading={list.isLoading}
        dataSource={list.data ?? []}
        rowKey="id"
        renderItem={(s) => (
          <List.Item
            className="security-signin"
            actions={
              s.current
                ? []
                : [
                    <Button key="end" size="small" loading={busy === s.id} onClick={() => askEnd(s)}>
                      {t('security.end')}
                    </Button>,
                  ]
            }
          >
            <List.Item.Meta
              avatar={s.device.mobile ? <MobileOutlined /> : <DesktopOutlined />}
              title={
                <Space wrap size={4}>
                  <span>{deviceText(s.device) ?? t('security.unknownDevice')}</span>
                  {s.current ? <Tag color="#237804">{t('security.current')}</Tag> : null}
                  <Tag>{s.kind === 'sso' ? t('security.signOn') : t('security.portal')}</Tag>
                </Space>
              }
              description={
                <div className="security-signin-facts">
                  <span>{t('security.fact', { label: t('security.ip'), value: s.ip || '-' })}</span>
                  <span>{t('security.fact', { label: t('security.startedAt'), value: s.startedAt })}</span>
                  <span>{t('security.fact', { label: t('security.lastSeenAt'), value: s.lastSeenAt })}</span>
                  {s.systems.length > 0 ? (
                    <span>
                      {t('security.fact', {
                        label: t('security.systems'),
                        value: s.systems.join(t('security.listSeparator')),
                      })}
                    </span>
                  ) : null}
                </div>
              }
            />
          </List.Item>
        )}
      />
      {holder}
    </section>
  );
}
