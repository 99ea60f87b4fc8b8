import { afterEach, describe, expect, it } from 'vitest';
import { storage } from './storage';
import { currentTenant, keepTenant, rememberedTenant, rememberTenant } from './tenant';

afterEach(() => localStorage.clear());

describe('the tenant of this tab', () => {
  it('is the one the address names, else the remembered one, else the default', () => {
    expect(currentTenant('')).toBe('demo');
    rememberTenant('?tc=park2');
    expect(currentTenant('')).toBe('park2');
    expect(currentTenant('?tenantCode=park3')).toBe('park3');
    expect(currentTenant('?redirect=%2Fhome%3Ftc%3Dpark4')).toBe('park4');
  });

  it('an address naming no tenant (absent, empty, null, undefined) changes nothing', () => {
    rememberTenant('?tc=park2');
    for (const search of ['', '?tc=', '?tenantCode=null', '?tc=undefined', '?tc=%20']) {
      rememberTenant(search);
      expect(currentTenant(search), search).toBe('park2');
    }
  });

  it('a kept tenant is remembered; an address names its code trimmed', () => {
    expect(rememberedTenant()).toBeNull();
    keepTenant('park5');
    expect(storage.get('tenantCode')).toBe('park5');
    rememberTenant('?tc=%20park6%20');
    expect(currentTenant('')).toBe('park6');
    // The server reads the same code for the document's content security policy.
    expect(document.cookie).toContain('portal_tenant=park6');
  });

  it("an address naming another tenant than the browser's session leaves the remembered one: the signed-in tabs keep theirs", () => {
    storage.set('token', 't');
    storage.set('userInfo', { tenantCode: 'platform' });
    keepTenant('platform');
    rememberTenant('?tc=demo');
    expect(rememberedTenant()).toBe('platform');
    expect(document.cookie).toContain('portal_tenant=platform');
    // The tab itself works for the tenant its address names.
    expect(currentTenant('?tc=demo')).toBe('demo');
    rememberTenant('?tc=platform');
    expect(rememberedTenant()).toBe('platform');
    // Signed out, an address names the remembered tenant again.
    storage.remove('token');
    rememberTenant('?tc=demo');
    expect(rememberedTenant()).toBe('demo');
  });
});
