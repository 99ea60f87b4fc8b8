import { constants, createDecipheriv, createHmac, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { canonicalParams, signingText } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { signHeaders } from './api/client';
import { aesEcbEncrypt } from './aes';
import { hmacSha256Hex, randomId, rsaOaepEncrypt } from './crypto';

describe('browser crypto without WebCrypto', () => {
  it('encrypts with RSA-OAEP-SHA256 that Node decrypts (the server side)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const cipher = await rsaOaepEncrypt(pem, 'Demo@2026!密码');
    const plain = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(cipher, 'base64'),
    );
    expect(plain.toString('utf8')).toBe('Demo@2026!密码');
  });

  it('encrypts with AES-128-ECB/PKCS#7 that Node decrypts (the captcha server side)', () => {
    const key = 'Ab3dEf6hIj9lMn2p';
    for (const text of ['', '{"x":150,"y":5}', 'exactly sixteen!', '令牌---[{"x":60,"y":60}]']) {
      const d = createDecipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
      const plain = Buffer.concat([d.update(Buffer.from(aesEcbEncrypt(key, text), 'base64')), d.final()]);
      expect(plain.toString('utf8')).toBe(text);
    }
  });

  it('computes the same HMAC-SHA256 as Node', () => {
    expect(hmacSha256Hex('k', 'text\n中文')).toBe(createHmac('sha256', 'k').update('text\n中文').digest('hex'));
  });

  it('makes nonces of the required alphabet and length', () => {
    expect(randomId(24)).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(randomId(24)).not.toBe(randomId(24));
  });

  it('signs a request exactly as docs/api.md says', () => {
    const query = { language: 'zh_CN', data: 'abc', empty: '' };
    const body = { b: 2, a: 'x' };
    const h = signHeaders('/api/x', query, body);
    const text = signingText(h['x-timestamp']!, h['x-nonce']!, '/api/x', canonicalParams(query, body));
    expect(text.split('\n')[3]).toBe('a=x&b=2&data=abc&language=zh_CN');
    expect(h['x-signature']).toBe(createHmac('sha256', 'test-secret').update(text).digest('hex'));
  });
});
