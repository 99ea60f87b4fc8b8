/** The console's one way to show and name a name that is data (ADR 047). */
import { act, render } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { loadLocale, setLocale } from '../../../lib/i18n';
import { nameIn, Named } from './console';

const shown = (el: HTMLElement) => Array.from(el.firstElementChild!.childNodes, (n) => n.textContent);

describe('nameIn', () => {
  it('takes the English in English mode when there is one, else the Chinese of record', () => {
    expect(nameIn('en-US', '蓝海智能制造有限公司', 'Lanhai Intelligent Manufacturing Co., Ltd.')).toBe(
      'Lanhai Intelligent Manufacturing Co., Ltd.',
    );
    expect(nameIn('en-US', '企业成员', '')).toBe('企业成员');
    expect(nameIn('en-US', '企业成员', null)).toBe('企业成员');
    expect(nameIn('zh-CN', '企业成员', 'Enterprise member')).toBe('企业成员');
  });
});

describe('Named', () => {
  afterAll(() => act(() => setLocale('zh-CN')));

  it('shows the Chinese with its English underneath in Chinese', () => {
    act(() => setLocale('zh-CN'));
    const { container } = render(<Named name="系统管理员" en="System Administrator" />);
    expect(shown(container)).toEqual(['系统管理员', 'System Administrator']);
  });

  it('shows the English alone in English, and the Chinese underneath only where both are asked for', async () => {
    await loadLocale('en-US');
    act(() => setLocale('en-US'));
    const one = render(<Named name="系统管理员" en="System Administrator" />);
    expect(shown(one.container)).toEqual(['System Administrator']);
    const both = render(<Named name="企业工作台" en="Enterprise workbench" both />);
    expect(shown(both.container)).toEqual(['Enterprise workbench', '企业工作台']);
    // No translation: the Chinese of record, once.
    const none = render(<Named name="访客系统" en="" both />);
    expect(shown(none.container)).toEqual(['访客系统']);
  });
});
