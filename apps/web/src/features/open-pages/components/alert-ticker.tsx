import type { DeviceAlert } from '@portal/contracts';
import type { Translate } from '../../../lib/i18n';
import '../../../locales/devices';

/** More alerts than this roll upwards (the list shown twice, so the loop has no seam). */
const ROLL_ABOVE = 5;

/** The newest open alerts, rolling when they do not fit; still for those who ask for less motion. */
export function AlertTicker({ alerts, t }: { alerts: DeviceAlert[]; t: Translate }) {
  if (alerts.length === 0) return <p className="ws-empty">{t('openPages.noAlerts')}</p>;
  const rolling = alerts.length > ROLL_ABOVE;
  const item = (a: DeviceAlert, copy: boolean) => (
    <li
      key={`${copy ? 'copy-' : ''}${a.id}`}
      className={`ws-alert ws-alert-${a.severity}`}
      aria-hidden={copy || undefined}
    >
      <span className="ws-alert-severity">{t(`devices.severities.${a.severity}`)}</span>
      <span className="ws-alert-body">
        <span className="ws-alert-message">{a.message}</span>
        <span className="ws-alert-where">
          {a.deviceName} · {a.location} · {a.raisedTime.slice(5, 16)}
        </span>
      </span>
    </li>
  );
  return (
    <div className="ws-ticker">
      <ul
        className={rolling ? 'ws-alerts ws-rolling' : 'ws-alerts'}
        style={rolling ? { animationDuration: `${alerts.length * 4}s` } : undefined}
      >
        {alerts.map((a) => item(a, false))}
        {rolling ? alerts.map((a) => item(a, true)) : null}
      </ul>
    </div>
  );
}
