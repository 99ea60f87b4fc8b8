/**
 * 租户设置 → 安全策略 / Security policy (docs/product/security-policy.md): the tenant's second-factor
 * requirement, the factors allowed, the grace to enrol, remembered browsers, the step-up window, the
 * password rules and how long sign-ins are kept. The server holds each value to its range and says
 * which is wrong; the form shows each key's range and the product's default beside it.
 */
import {
  FACTOR_KINDS,
  FACTOR_REQUIREMENTS,
  type FactorKind,
  type SecurityPolicy,
  type SecurityPolicyView,
} from '@portal/contracts';
import { Button, Checkbox, InputNumber, Select, Skeleton, Space, Switch } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { put, useAdminQuery, useChange } from '../api/admin';
import { Failed } from '../components/console';

type NumberKey = {
  [K in keyof SecurityPolicy]: SecurityPolicy[K] extends number ? K : never;
}[keyof SecurityPolicy];
type BoolKey = 'passwordNotUsername' | 'passwordNotCommon';

/** The ranges of the contracts' schema, shown and enforced by the number fields. */
const RANGES: Record<NumberKey, [number, number]> = {
  enrolGraceDays: [0, 90],
  rememberBrowserDays: [0, 365],
  stepUpMinutes: [1, 60],
  passwordMinLength: [8, 64],
  passwordClasses: [1, 4],
  passwordHistory: [0, 24],
  passwordMaxAgeDays: [0, 3650],
  loginHistoryDays: [1, 3650],
};

const GROUPS: { key: string; fields: (keyof SecurityPolicy)[] }[] = [
  {
    key: 'factors',
    fields: ['factorRequirement', 'allowedFactors', 'enrolGraceDays', 'rememberBrowserDays', 'stepUpMinutes'],
  },
  {
    key: 'passwords',
    fields: [
      'passwordMinLength',
      'passwordClasses',
      'passwordNotUsername',
      'passwordNotCommon',
      'passwordHistory',
      'passwordMaxAgeDays',
    ],
  },
  { key: 'history', fields: ['loginHistoryDays'] },
];

export function SecurityPolicyForm() {
  const { t } = useTranslation();
  const view = useAdminQuery<SecurityPolicyView>('/api/admin/security-policy');
  const [policy, setPolicy] = useState<SecurityPolicy | null>(null);
  const { busy, run } = useChange();
  useEffect(() => {
    if (view.data) setPolicy(view.data.policy);
  }, [view.data]);

  if (view.isError) return <Failed error={view.error} retry={() => void view.refetch()} />;
  if (!view.data || !policy) return <Skeleton active paragraph={{ rows: 10 }} />;
  const { defaults } = view.data;
  const p = 'admin.security';

  const shown = (key: keyof SecurityPolicy, value: unknown): string => {
    if (typeof value === 'boolean') return t(value ? 'admin.settings.on' : 'admin.settings.off');
    if (key === 'factorRequirement') return t(`${p}.requirement.${String(value)}`);
    if (Array.isArray(value)) return value.map((f) => t(`${p}.factor.${String(f)}`)).join(t(`${p}.separator`));
    return String(value);
  };

  const control = (key: keyof SecurityPolicy): ReactNode => {
    const label = t(`${p}.fields.${key}`);
    const set = (v: unknown) => setPolicy((s) => (s ? { ...s, [key]: v } : s));
    if (key === 'factorRequirement')
      return (
        <Select
          aria-label={label}
          value={policy.factorRequirement}
          options={FACTOR_REQUIREMENTS.map((r) => ({ value: r, label: t(`${p}.requirement.${r}`) }))}
          onChange={set}
        />
      );
    if (key === 'allowedFactors')
      return (
        <Checkbox.Group
          aria-label={label}
          value={policy.allowedFactors}
          options={FACTOR_KINDS.map((f) => ({ value: f, label: t(`${p}.factor.${f}`) }))}
          onChange={(v) => set(FACTOR_KINDS.filter((f) => (v as FactorKind[]).includes(f)))}
        />
      );
    if (key === 'passwordNotUsername' || key === 'passwordNotCommon')
      return <Switch aria-label={label} checked={policy[key as BoolKey]} onChange={set} />;
    const [min, max] = RANGES[key as NumberKey];
    return (
      <Space>
        <InputNumber
          aria-label={label}
          min={min}
          max={max}
          precision={0}
          value={policy[key as NumberKey]}
          onChange={(v) => set(v ?? min)}
        />
        <span className="admin-secondary">{t(`${p}.range`, { min, max })}</span>
      </Space>
    );
  };

  return (
    <div className="admin-settings-form admin-security-policy">
      {GROUPS.map((group) => (
        <section key={group.key} className="admin-settings-group" aria-labelledby={`admin-security-${group.key}`}>
          <h5 className="admin-section-title" id={`admin-security-${group.key}`}>
            {t(`${p}.groups.${group.key}`)}
          </h5>
          <div className="admin-settings-grid">
            {group.fields.map((key) => (
              <div key={key} className="admin-setting" data-key={key}>
                <div className="admin-setting-label">
                  {t(`${p}.fields.${key}`)}
                  <div className="admin-secondary">{t(`${p}.help.${key}`)}</div>
                  <div className="admin-secondary">{t(`${p}.default`, { value: shown(key, defaults[key]) })}</div>
                </div>
                <div className="admin-setting-control">{control(key)}</div>
              </div>
            ))}
          </div>
        </section>
      ))}
      <Space wrap className="admin-settings-actions">
        <Button onClick={() => setPolicy(view.data.policy)}>{t('admin.settings.undo')}</Button>
        <Button onClick={() => setPolicy(defaults)}>{t(`${p}.useDefaults`)}</Button>
        <Button
          type="primary"
          loading={busy}
          onClick={() => void run(() => put('/api/admin/security-policy', { ...policy }), t('admin.saved'))}
        >
          {t('admin.save')}
        </Button>
      </Space>
    </div>
  );
}
