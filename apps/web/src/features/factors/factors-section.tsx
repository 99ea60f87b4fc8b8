/**
 * 账户安全 → 第二验证方式 (docs/product/security-policy.md#factors): the person's authenticators
 * (add with QR code and key, confirm with the first code, remove), recovery codes (shown once,
 * regenerate) and remembered browsers. The 账户安全 page composes it with the other sections.
 */
import type { MyFactors, TotpEnrolment } from '@portal/contracts';
import { Alert, Button, Card, Input, List, Modal, Popconfirm, Space, Typography, message } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { messageOf } from '../../lib/api/client';
import { addMessages, useTranslation } from '../../lib/i18n';
import { confirmTotp, forgetBrowsers, listFactors, regenerateRecovery, removeFactor, startTotp } from './api/factors';

// The verified mobile's line, in this section's chunk.
addMessages('factors', {
  'zh-CN': {
    smsLine: '短信验证码：已验证手机 {{mobile}}',
    smsHint: '登录时可向此手机发送验证码。更换手机号请在个人资料中修改。',
  },
  'en-US': {
    smsLine: 'SMS code: verified mobile {{mobile}}',
    smsHint: 'Sign-ins can send a code to this phone. Change the number in your profile.',
  },
});

function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={codes !== null}
      title={t('factors.recoveryTitle')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('factors.saved')}
    >
      <Alert type="warning" showIcon message={t('factors.recoveryOnce')} style={{ marginBottom: 12 }} />
      <pre aria-label={t('factors.recoveryTitle')} style={{ columns: 2, fontSize: 15, lineHeight: 1.8 }}>
        {(codes ?? []).join('\n')}
      </pre>
    </Modal>
  );
}

export function FactorsSection() {
  const { t } = useTranslation();
  const [data, setData] = useState<MyFactors | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(() => listFactors().then(setData, () => undefined), []);
  useEffect(() => void reload(), [reload]);

  const totpAllowed = data?.allowed.includes('totp') && data.requirement !== 'off';
  const confirm = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      const r = await confirmTotp(code.trim());
      setEnrolment(null);
      setCode('');
      if (r.recoveryCodes) setCodes(r.recoveryCodes);
      void message.success(t('factors.added'));
      await reload();
    } catch (err) {
      setRefusal(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('factors.title')} aria-label={t('factors.title')}>
      <Typography.Paragraph type="secondary">{t('factors.lead')}</Typography.Paragraph>
      <List
        // Passkeys have their own section beside this one: here the authenticator apps.
        dataSource={(data?.factors ?? []).filter((f) => f.kind === 'totp')}
        locale={{ emptyText: t('factors.none') }}
        renderItem={(f) => (
          <List.Item
            actions={[
              <Popconfirm
                key="remove"
                title={t('factors.removeConfirm', { name: f.name })}
                onConfirm={() => removeFactor(f.id).then(reload)}
              >
                <Button danger size="small">
                  {t('factors.remove')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={f.name}
              description={`${t('factors.kindTotp')} · ${t('factors.added_at', { at: f.createdAt.slice(0, 10) })}${f.lastUsedAt ? ` · ${t('factors.usedAt', { at: f.lastUsedAt.slice(0, 10) })}` : ''}`}
            />
          </List.Item>
        )}
      />
      {data?.smsMobile ? (
        // Read-only: the number is changed where the mobile is changed (the profile).
        <List.Item.Meta
          style={{ borderTop: '1px solid rgba(5, 5, 5, 0.06)', paddingTop: 12 }}
          title={t('factors.smsLine', { mobile: data.smsMobile })}
          description={t('factors.smsHint')}
        />
      ) : null}
      <Space wrap style={{ marginTop: 12 }}>
        {totpAllowed ? (
          <Button type="primary" onClick={() => setEnrolment({ id: '', secret: '', uri: '', qr: '' })}>
            {t('factors.addTotp')}
          </Button>
        ) : null}
        {data && data.factors.length > 0 ? (
          <Popconfirm
            title={t('factors.regenerateConfirm')}
            onConfirm={() =>
              regenerateRecovery().then(
                (r) => setCodes(r.recoveryCodes),
                () => undefined,
              )
            }
          >
            <Button>{t('factors.regenerate', { left: data.recoveryCodesLeft })}</Button>
          </Popconfirm>
        ) : null}
        <Button
          onClick={() =>
            forgetBrowsers().then(
              (r) => void message.success(t('factors.forgotten', { count: r.count })),
              () => undefined,
            )
          }
        >
          {t('factors.forgetBrowsers')}
        </Button>
      </Space>
      <Modal
        open={enrolment !== null}
        title={t('factors.addTotp')}
        onCancel={() => {
          setEnrolment(null);
          setCode('');
          setRefusal(null);
        }}
        okText={enrolment?.qr ? t('factors.confirm') : t('factors.next')}
        confirmLoading={busy}
        onOk={() => {
          if (!enrolment?.qr) {
            setBusy(true);
            startTotp(name.trim() || t('factor.defaultName')).then(
              (e) => {
                setEnrolment(e);
                setBusy(false);
              },
              () => setBusy(false),
            );
          } else void confirm();
        }}
      >
        {!enrolment?.qr ? (
          <Input
            autoFocus
            maxLength={64}
            aria-label={t('factors.name')}
            placeholder={t('factors.namePlaceholder')}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text>{t('factor.scan')}</Typography.Text>
            <img
              src={enrolment.qr}
              alt={t('factor.qrAlt')}
              width={180}
              height={180}
              style={{ display: 'block', margin: '0 auto' }}
            />
            <Typography.Text
              code
              copyable
              aria-label={t('factor.manualKey')}
              style={{ display: 'block', textAlign: 'center' }}
            >
              {enrolment.secret}
            </Typography.Text>
            <Input
              autoFocus
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              aria-label={t('factor.codeLabel')}
              placeholder={t('factor.codeLabel')}
              value={code}
              status={refusal ? 'error' : undefined}
              onChange={(e) => setCode(e.target.value)}
              onPressEnter={() => void confirm()}
            />
            {refusal ? <Alert type="error" message={refusal} role="alert" /> : null}
          </Space>
        )}
      </Modal>
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
    </Card>
  );
}
