/**
 * A user agent in a few words: browser family, system family, phone or not (ADR 052: a few rules,
 * no library). Only families: versions change with every update and would make every update a
 * "new device". Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", WeChat's
 * browser says all of them.
 */
import type { DeviceInfo } from '@portal/contracts';

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\//, 'WeChat'],
  [/DingTalk\//, 'DingTalk'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/UCBrowser\//, 'UC Browser'],
  [/QQBrowser\//, 'QQ Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
  [/curl\//, 'curl'],
  [/^portal-admin-cli/, 'Admin CLI'],
];

const SYSTEMS: [RegExp, string][] = [
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

const first = (ua: string, rules: [RegExp, string][]) => rules.find(([re]) => re.test(ua))?.[1] ?? '';

export function deviceOf(userAgent: string | null | undefined): DeviceInfo {
  const ua = (userAgent ?? '').slice(0, 512);
  return {
    browser: first(ua, BROWSERS),
    os: first(ua, SYSTEMS),
    mobile: /Mobile|iPhone|Android|HarmonyOS/.test(ua) && !/iPad/.test(ua),
  };
}

/** A device's family as one key: what "a new device" compares. Empty when the agent says nothing known. */
export function deviceKey(userAgent: string | null | undefined): string {
  const d = deviceOf(userAgent);
  return d.browser || d.os ? `${d.browser}/${d.os}` : '';
}
