import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from './storage';

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('storage', () => {
  it('keeps values under the configured prefix', () => {
    storage.set('token', 'abc');
    expect(localStorage.getItem('portal_token')).toContain('abc');
    expect(storage.get('token')).toBe('abc');
  });

  it('expires user info after 7 days and the selected app after 1 day', () => {
    vi.useFakeTimers();
    storage.set('userInfo', { name: 'x' });
    storage.set('selectedAppCode', 'A');
    vi.advanceTimersByTime(864e5 + 1);
    expect(storage.get('selectedAppCode')).toBeNull();
    expect(storage.get('userInfo')).toEqual({ name: 'x' });
    vi.advanceTimersByTime(6048e5);
    expect(storage.get('userInfo')).toBeNull();
  });

  it('clears all local and session storage at logout, keeping only what it is asked to', () => {
    storage.set('token', 't');
    storage.set('locale', 'en');
    localStorage.setItem('micro_app_draft', 'of the user who left');
    sessionStorage.setItem('s', '1');
    storage.clearAll(['locale']);
    expect(storage.get('token')).toBeNull();
    expect(storage.get('locale')).toBe('en');
    expect(localStorage.getItem('micro_app_draft')).toBeNull();
    expect(localStorage.length).toBe(1);
    expect(sessionStorage.length).toBe(0);
  });

  it('drops a corrupt value instead of failing', () => {
    localStorage.setItem('portal_token', '{not json');
    expect(storage.get('token')).toBeNull();
  });
});
