import type { Translate } from '../../../lib/i18n';
import '../../../locales/devices';

/** A reading's name and unit, as the pages show it; a metric the portal does not know is shown by its name. */
export function reading(t: Translate, metric: string, value: number): string {
  const key = `devices.metrics.${metric}`;
  const label = t(key);
  return label === key ? `${metric} ${value}` : t(key, { value });
}
