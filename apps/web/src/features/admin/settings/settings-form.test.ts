import { RUNTIME_DEFAULTS, TENANT_SWITCHES, type TenantSettingsView } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { initialState, setFollow, setValue, settingIssue, settingIssues, settingsBody } from './settings-form';

const defaults = Object.fromEntries(
  TENANT_SWITCHES.map((k) => [k, RUNTIME_DEFAULTS[k]]),
) as TenantSettingsView['defaults'];
const view: TenantSettingsView = { settings: { siteName: '东湖园区', noticeEnabled: true }, defaults };

describe('tenant settings form', () => {
  it('shows what the tenant set, else the installation’s value, and which fields follow it', () => {
    const s = initialState(view);
    expect(s.values.siteName).toBe('东湖园区');
    expect(s.values.noticeEnabled).toBe(true);
    expect(s.values.siteNameEn).toBe(defaults.siteNameEn);
    expect(s.follow.has('siteName')).toBe(false);
    expect(s.follow.has('siteNameEn')).toBe(true);
    expect(s.follow.size).toBe(TENANT_SWITCHES.length - 2);
  });

  it('sends only the fields that do not follow the installation, text trimmed', () => {
    let s = initialState(view);
    s = setValue(s, 'theme', ' top ');
    expect(settingsBody(s)).toEqual({ siteName: '东湖园区', noticeEnabled: true, theme: 'top' });
  });

  it('follows again: the installation’s value is shown and nothing is sent for it', () => {
    let s = setFollow(initialState(view), view, 'siteName', true);
    expect(s.values.siteName).toBe(defaults.siteName);
    expect(settingsBody(s)).toEqual({ noticeEnabled: true });
    // Stops following: the value shown becomes the tenant's own.
    s = setFollow(s, view, 'siteName', false);
    expect(settingsBody(s)).toEqual({ siteName: defaults.siteName, noticeEnabled: true });
  });

  it('keeps a false or empty value the tenant set (it is not the same as following)', () => {
    const s = initialState({ settings: { notsms: false, logo: '' }, defaults });
    expect(settingsBody(s)).toEqual({ notsms: false, logo: '' });
  });

  it("holds the texts to the server's rules before they are sent (ADR 036)", () => {
    const s = initialState(view);
    expect(settingIssues(s)).toEqual([]);
    expect(settingIssue(setValue(s, 'siteName', '长'.repeat(61)), 'siteName')).toBe('tooLong');
    expect(settingIssue(setValue(s, 'siteName', ' '), 'siteName')).toBe('required');
    for (const link of ['园区https://evil.example/verify', 'evil.example', 'www.x.cn', '园\u202e区']) {
      expect(settingIssue(setValue(s, 'siteName', link), 'siteName'), link).toBe('name');
    }
    expect(settingIssue(setValue(s, 'siteNameEn', ''), 'siteNameEn')).toBeNull();
    expect(settingIssue(setValue(s, 'siteNameEn', 'Star River Park (North)'), 'siteNameEn')).toBeNull();
    expect(settingIssue(setValue(s, 'domianURL', 'javascript:alert(1)'), 'domianURL')).toBe('url');
    expect(settingIssue(setValue(s, 'domianURL', 'https://park.example.com/'), 'domianURL')).toBeNull();
    // A field that follows the installation is the installation's business.
    expect(
      settingIssue(setFollow(setValue(s, 'siteName', 'evil.example'), view, 'siteName', true), 'siteName'),
    ).toBeNull();
  });
});
