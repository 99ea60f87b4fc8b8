import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../db/client.js';
import { freshDatabase } from '../test/harness.js';
import { ensureSecret, loadSecrets } from './secrets.js';

let db: Db;
beforeAll(async () => {
  db = connect(await freshDatabase('sec'), 2);
});
afterAll(async () => {
  await db?.$client.end();
});

describe('server secrets', () => {
  it('makes a secret on first use only: later calls read the stored one and make none', async () => {
    let made = 0;
    const make = () => `value-${++made}`;
    expect(await ensureSecret(db, 'test_secret', make)).toBe('value-1');
    expect(await ensureSecret(db, 'test_secret', make)).toBe('value-1');
    expect(made).toBe(1);
  });

  it('keeps the key pair of the first start for every later one', async () => {
    const first = await loadSecrets(db);
    const again = await loadSecrets(db);
    expect(again.rsaKeyId).toBe(first.rsaKeyId);
    expect(again.rsaPrivateKeyPem).toBe(first.rsaPrivateKeyPem);
  });
});
