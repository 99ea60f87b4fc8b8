import { passwordStrength } from '@portal/contracts';
import { useTranslation } from '../lib/i18n';
import './forms.css';

const COLOURS = { low: '#cf1322', medium: '#d46b08', strong: '#389e0d' } as const;

/** The strength meter of docs/product/validation.md#password-strength: 10 at no class, 30 per class, 100 at three; low, medium, strong. */
export function PasswordStrength({ password }: { password: string }) {
  const { t } = useTranslation();
  if (!password) return null;
  const s = passwordStrength(password);
  return (
    <div className="pw-strength" aria-live="polite">
      <div
        className="pw-strength-bar"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={s.meter}
        aria-label={t('forms.strength')}
      >
        <span style={{ width: `${s.meter}%`, background: COLOURS[s.level] }} />
      </div>
      <span className="pw-strength-text" style={{ color: COLOURS[s.level] }}>
        {t('forms.strengthIs', { level: t(`forms.strength_${s.level}`) })}
      </span>
    </div>
  );
}
