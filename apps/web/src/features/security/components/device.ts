import type { DeviceInfo } from '@portal/contracts';

/** A device in a few words: `Chrome · Windows`, or null when its browser says nothing known. */
export function deviceText(d: DeviceInfo): string | null {
  const parts = [d.browser, d.os].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}
