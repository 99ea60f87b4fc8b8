import { describe, expect, it } from 'vitest';
import { auditedValue, isSecretKey } from './audit.js';

describe('what the audit keeps of a request', () => {
  it('redacts passwords, hashes, secrets, tokens, one-time codes and keys, and nothing else', () => {
    for (const key of [
      'password',
      'newPassword',
      'passwordHash',
      'salt',
      'clientSecret',
      'refresh_token',
      'captchaVerification',
      'otp',
      'totp',
      'smsCode',
      'recovery_code',
      'apiKey',
      'signing_key',
      'privateKeyPem',
    ])
      expect(isSecretKey(key), key).toBe(true);
    for (const key of [
      'username',
      'footprint',
      'keepAlive',
      'code',
      'credentials',
      'monkey',
      'notes',
      'remark',
      'title',
    ])
      expect(isSecretKey(key), key).toBe(false);
    expect(auditedValue({ user: 'x', body: { totp: '123456', nested: { passwordHash: '$argon2id$…' } } })).toEqual({
      user: 'x',
      body: { totp: '[redacted]', nested: { passwordHash: '[redacted]' } },
    });
  });
});
