/**
 * 租户设置 (ADR 031, menu component `admin/settings`): the runtime switches a tenant sets for
 * itself (contracts TENANT_SWITCHES), each either the tenant's own value or following the
 * installation's (shown as it is); the logo, uploaded; and the registration agreement in Chinese and
 * English, as HTML with a sanitised preview (the server sanitises it again when stored).
 */
import { UploadOutlined } from '@ant-design/icons';
import type { AgreementEdit, LogoUploaded, TenantSettingsView, TenantSwitch } from '@portal/contracts';
import { Button, Checkbox, Input, Select, Skeleton, Space, Switch, Tabs } from 'antd';
import DOMPurify from 'dompurify';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { adminCall, put, useAdminQuery, useChange } from '../api/admin';
import { useScope } from '../api/scope';
import { ConsolePage, Failed } from '../components/console';
import {
  SETTING_MAX_LENGTH,
  initialState,
  setFollow,
  setValue,
  settingIssue,
  settingIssues,
  settingsBody,
  type SettingsState,
  type SettingValues,
} from './settings-form';
import { SecurityPolicyForm } from './security-policy';
import './settings.css';

type Kind = 'text' | 'url' | 'bool' | 'logo' | { options: string[] };
const LAYOUTS = { options: ['', 'top', 'JZH'] };
const REGISTER = { options: ['', 'card', 'split', 'banner'] };
const LOCALES = { options: ['zh-CN', 'en-US'] };

const GROUPS: { key: string; fields: [TenantSwitch, Kind][] }[] = [
  {
    key: 'site',
    fields: [
      ['siteName', 'text'],
      ['siteNameEn', 'text'],
      ['logo', 'logo'],
      ['defaultLocale', LOCALES],
      ['languageSwitch', 'bool'],
    ],
  },
  {
    key: 'layout',
    fields: [
      ['theme', LAYOUTS],
      ['apptheme', LAYOUTS],
      ['keepAlive', 'bool'],
      ['homePortalLink', 'bool'],
      ['domianURL', 'url'],
    ],
  },
  {
    key: 'features',
    fields: [
      ['noticeEnabled', 'bool'],
      ['workbenchEnabled', 'bool'],
      ['appSwitch', 'bool'],
    ],
  },
  {
    key: 'register',
    fields: [
      ['registerTheme', REGISTER],
      ['notsms', 'bool'],
      ['registerWithoutSms', 'bool'],
    ],
  },
];

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage className="admin-settings">
      <Tabs
        items={[
          { key: 'switches', label: t('admin.settings.switches'), children: <Switches /> },
          { key: 'agreement', label: t('admin.settings.agreement'), children: <Agreement /> },
          { key: 'security', label: t('admin.security.tab'), children: <SecurityPolicyForm /> },
        ]}
      />
    </ConsolePage>
  );
}

function Switches() {
  const { t } = useTranslation();
  const view = useAdminQuery<TenantSettingsView>('/api/admin/settings');
  const [state, setState] = useState<SettingsState | null>(null);
  const { busy, run } = useChange();
  // A new answer (another tenant, a save) starts the form again.
  useEffect(() => {
    if (view.data) setState(initialState(view.data));
  }, [view.data]);

  if (view.isError) return <Failed error={view.error} retry={() => void view.refetch()} />;
  if (!view.data || !state) return <Skeleton active paragraph={{ rows: 10 }} />;
  const data = view.data;

  const shown = (key: TenantSwitch, value: unknown): string => {
    if (typeof value === 'boolean') return t(value ? 'admin.settings.on' : 'admin.settings.off');
    const option = `admin.settings.options.${key}.${String(value)}`;
    const label = t(option);
    if (label !== option) return label;
    return value === '' ? t('admin.settings.empty') : String(value);
  };

  const control = (key: TenantSwitch, kind: Kind): ReactNode => {
    const value = state.values[key];
    const set = <K extends TenantSwitch>(v: SettingValues[K]) => setState((s) => (s ? setValue(s, key as K, v) : s));
    const label = t(`admin.settings.fields.${key}`);
    if (kind === 'bool')
      return <Switch aria-label={label} checked={value as boolean} onChange={(v) => set(v as never)} />;
    if (kind === 'logo') return <LogoField value={value as string} label={label} onChange={(v) => set(v as never)} />;
    if (typeof kind === 'object')
      return (
        <Select
          aria-label={label}
          value={value as string}

          options={kind.options.map((o) => ({ value: o, label: shown(key, o) }))}
          onChange={(v: string) => set(v as never)}
        />
      );
    const issue = settingIssue(state, key);
    const max = SETTING_MAX_LENGTH[key];
    return (
      <>
        <Input
          aria-label={label}
          value={value as string}
          status={issue ? 'error' : undefined}
          aria-invalid={issue ? true : undefined}
          aria-describedby={issue ? `admin-setting-${key}-issue` : undefined}
          inputMode={kind === 'url' ? 'url' : undefined}
          onChange={(e) => set(e.target.value as never)}
        />
        {issue ? (
          <div className="admin-setting-issue" id={`admin-setting-${key}-issue`} role="alert">
            {t(`admin.settings.rules.${issue}`, { max: max ?? 0 })}
          </div>
        ) : null}
      </>
    );
  };
  const invalid = settingIssues(state).length > 0;

  return (
    <div className="admin-settings-form">
      {GROUPS.map((group) => (
        <section key={group.key} className="admin-settings-group" aria-labelledby={`admin-settings-${group.key}`}>
          <h5 className="admin-section-title" id={`admin-settings-${group.key}`}>
            {t(`admin.settings.groups.${group.key}`)}
          </h5>
          <div className="admin-settings-grid">
            {group.fields.map(([key, kind]) => (
              <div key={key} className="admin-setting" data-key={key}>
                <div className="admin-setting-label">
                  {t(`admin.settings.fields.${key}`)}
                  <div className="admin-secondary">{t(`admin.settings.help.${key}`)}</div>
                </div>
                <Checkbox
                  className="admin-setting-follow"
                  checked={state.follow.has(key)}
                  onChange={(e) => setState((s) => (s ? setFollow(s, data, key, e.target.checked) : s))}
                >
                  {t('admin.settings.follow', { value: shown(key, data.defaults[key]) })}
                </Checkbox>
                {state.follow.has(key) ? null : <div className="admin-setting-control">{control(key, kind)}</div>}
              </div>
            ))}
          </div>
        </section>
      ))}
      <Space className="admin-settings-actions">
        <Button onClick={() => setState(initialState(data))}>{t('admin.settings.undo')}</Button>
        <Button
          type="primary"
          loading={busy}
          disabled={invalid}
          onClick={() =>
            void run(() => put('/api/admin/settings', settingsBody(state) as Record<string, unknown>), t('admin.saved'))
          }
        >
          {t('admin.save')}
        </Button>
      </Space>
    </div>
  );
}

/** The logo: the address of the tenant's upload (cleared to follow none), a picture to upload, a preview. */
function LogoField({ value, label, onChange }: { value: string; label: string; onChange: (logo: string) => void }) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const tenant = useScope((s) => s.tenant);
  async function upload(chosen: File) {
    if (!/\.(png|jpe?g)$/i.test(chosen.name)) return toast('error', t('admin.settings.logoType'));
    if (chosen.size > 512 * 1024) return toast('error', t('admin.settings.logoSize'));
    const form = new FormData();
    form.append('file', chosen);
    setUploading(true);
    try {
      const { logo } = await adminCall<LogoUploaded>('/api/admin/settings/logo', { method: 'POST', form });
      onChange(logo);
      toast('success', t('admin.settings.logoUploaded'));
    } catch {
      // the handler showed the server's message
    } finally {
      setUploading(false);
    }
  }
  return (
    <div className="admin-logo" data-tenant={tenant?.code}>
      {value ? <img className="admin-logo-preview" src={value} alt={t('admin.settings.logoPreview')} /> : null}
      <Space.Compact className="admin-logo-input">
        <Input aria-label={label} value={value} readOnly allowClear onChange={(e) => onChange(e.target.value)} />
        <Button icon={<UploadOutlined />} loading={uploading} onClick={() => file.current?.click()}>
          {t('admin.settings.upload')}
        </Button>
      </Space.Compact>
      <input
        ref={file}
        type="file"
        hidden
        accept="image/png,image/jpeg"
        aria-label={t('admin.settings.upload')}
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen) void upload(chosen);
        }}
      />
    </div>
  );
}

/** HTML of the agreement, as the registration page shows it (sanitised again there). */
const preview = (html: string) =>
  DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'svg', 'math'],
    FORBID_ATTR: ['style'],
  });

function Agreement() {
  const { t } = useTranslation();
  const stored = useAdminQuery<AgreementEdit>('/api/admin/agreement');
  const [draft, setDraft] = useState<{ html: string; htmlEn: string } | null>(null);
  const { busy, run } = useChange();
  useEffect(() => {
    if (stored.data) setDraft({ html: stored.data.html, htmlEn: stored.data.htmlEn ?? '' });
  }, [stored.data]);
  if (stored.isError) return <Failed error={stored.error} retry={() => void stored.refetch()} />;
  if (!draft) return <Skeleton active paragraph={{ rows: 10 }} />;
  const editor = (lang: 'html' | 'htmlEn') => (
    <div className="admin-agreement">
      <Input.TextArea
        aria-label={t(lang === 'html' ? 'admin.settings.agreementZh' : 'admin.settings.agreementEn')}
        className="admin-agreement-source"
        value={draft[lang]}
        autoSize={{ minRows: 12, maxRows: 30 }}
        maxLength={100_000}
        onChange={(e) => setDraft({ ...draft, [lang]: e.target.value })}
      />
      <div className="admin-agreement-preview" aria-label={t('admin.settings.preview')} role="region">
        <div className="admin-secondary">{t('admin.settings.preview')}</div>
        {draft[lang].trim() ? (
          <div dangerouslySetInnerHTML={{ __html: preview(draft[lang]) }} />
        ) : (
          <div className="admin-secondary">
            {t(lang === 'htmlEn' ? 'admin.settings.enEmpty' : 'admin.settings.zhEmpty')}
          </div>
        )}
      </div>
    </div>
  );
  return (
    <div className="admin-stack">
      <p className="admin-secondary">{t('admin.settings.agreementHelp')}</p>
      <Tabs
        size="small"
        items={[
          { key: 'zh', label: t('admin.settings.agreementZh'), children: editor('html') },
          { key: 'en', label: t('admin.settings.agreementEn'), children: editor('htmlEn') },
        ]}
      />
      <Space className="admin-settings-actions">
        <Button onClick={() => stored.data && setDraft({ html: stored.data.html, htmlEn: stored.data.htmlEn ?? '' })}>
          {t('admin.settings.undo')}
        </Button>
        <Button
          type="primary"
          loading={busy}
          onClick={() => void run(() => put('/api/admin/agreement', draft), t('admin.saved'))}
        >
          {t('admin.save')}
        </Button>
      </Space>
    </div>
  );
}
