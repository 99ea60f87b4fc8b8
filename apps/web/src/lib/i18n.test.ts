import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLocale, translate, useTranslation } from './i18n';

afterEach(() => setLocale('zh-CN'));

describe('translate', () => {
  it('reads nested keys in the asked language', () => {
    expect(translate('zh-CN', 'shell.home')).toBe('首页');
    expect(translate('en-US', 'shell.home')).toBe('Home');
  });

  it('gives the key itself for an unknown key or a key naming a group', () => {
    expect(translate('en-US', 'shell.nothing')).toBe('shell.nothing');
    expect(translate('en-US', 'shell')).toBe('shell');
  });

  it('fills {{name}} placeholders in one pass, leaving unknown ones and never re-reading values', () => {
    expect(translate('zh-CN', 'shell.welcome', { name: '张敏' })).toBe('欢迎回来，张敏');
    expect(translate('en-US', 'app.footer', { year: 2026, site: '{{year}} $&' })).toBe('© 2026 {{year}} $&');
    expect(translate('en-US', 'app.footer', { year: 2026 })).toBe('© 2026 {{site}}');
  });
});

describe('language switch', () => {
  it('changes i18n.t outside React and re-renders hooks', () => {
    const { result } = renderHook(() => useTranslation());
    expect(result.current.t('shell.home')).toBe('首页');
    act(() => setLocale('en-US'));
    expect(result.current.t('shell.home')).toBe('Home');
    expect(result.current.i18n.language).toBe('en-US');
    expect(i18n.t('shell.home')).toBe('Home');
    expect(document.documentElement.lang).toBe('en-US');
  });
});
