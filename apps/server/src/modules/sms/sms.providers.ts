/**
 * Where a text message goes (ADR 010). `outbox` keeps it in the `sms_outbox` table and the log, for
 * operators and demos; `webhook` POSTs it as JSON to a gateway with an HMAC-SHA256 signature of the
 * body under a shared secret (header `X-Signature: sha256=<hex>`, timestamp in `X-Timestamp`, which
 * the signature covers as `<timestamp>.<body>`).
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Outbound } from '../../platform/outbound.js';
import type { SmsRepository } from './sms.repository.js';

export interface SmsMessage {
  tenantId: number;
  phone: string;
  purpose: number;
  text: string;
}

export interface SmsProvider {
  readonly name: 'outbox' | 'webhook';
  /** Resolves once the message is accepted; rejects when it was not (nothing was sent). */
  send(message: SmsMessage): Promise<void>;
}

export function createOutboxProvider(repo: SmsRepository, log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'outbox',
    async send(m) {
      await repo.addToOutbox(m.tenantId, m.phone, m.text);
      // Operators read the messages in the table; the log says one was queued, without the code
      // (a reset code in a log would let anyone who reads logs take over the account).
      log.info({ sms: { tenantId: m.tenantId, phone: m.phone, purpose: m.purpose } }, 'sms queued in the outbox');
    },
  };
}

export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The gateway's address is the installation's (SMS_WEBHOOK_URL), sent through the server's one
 * outbound client: no redirect followed (a 3xx is a failure), a deadline, the answer not read.
 */
export function createWebhookProvider(opts: {
  url: string;
  secret: string;
  timeoutMs: number;
  outbound: Pick<Outbound, 'send'>;
}): SmsProvider {
  return {
    name: 'webhook',
    async send(m) {
      const body = JSON.stringify({ phone: m.phone, purpose: m.purpose, text: m.text });
      const timestamp = String(Date.now());
      const res = await opts.outbound.send(opts.url, {
        purpose: 'sms_webhook',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-timestamp': timestamp,
          'x-signature': signWebhook(opts.secret, timestamp, body),
        },
        body,
        timeoutMs: opts.timeoutMs,
        maxResponseBytes: 0,
        installation: true,
      });
      if (res.status < 200 || res.status >= 300) throw new Error(`sms gateway answered ${res.status}`);
    },
  };
}
