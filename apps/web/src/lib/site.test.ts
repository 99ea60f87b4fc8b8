import { afterEach, describe, expect, it } from 'vitest';
import { RUNTIME_DEFAULTS } from '@portal/contracts';
import { siteName } from './site';

afterEach(() => {
  window.__PORTAL_CONFIG__ = { ...RUNTIME_DEFAULTS, signSecret: 'test-secret', uploadMaxBytes: 20 * 2 ** 20 };
});

describe('the site name', () => {
  it('is siteName in Chinese and siteNameEn in English', () => {
    expect(siteName('zh-CN')).toBe('企业服务门户');
    expect(siteName('en-US')).toBe('Enterprise Service Portal');
  });

  it('is the Chinese one in English too when no English name is set', () => {
    window.__PORTAL_CONFIG__ = { ...window.__PORTAL_CONFIG__!, siteName: '星河园区', siteNameEn: '' };
    expect(siteName('en-US')).toBe('星河园区');
  });
});
