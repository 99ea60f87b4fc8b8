/**
 * SMS verification codes (ADR 010, docs/product/behaviour.md#sms-button, docs/product/limits.md#timers): six digits from a CSPRNG, stored as a
 * keyed hash, valid for a few minutes, bound to phone and purpose, spent by the first right answer,
 * voided after too many wrong ones. A new code needs the cooldown to have passed and stays within
 * the daily caps per phone and per address; it is stored only when the provider accepted it.
 */
import { createHmac, randomInt } from 'node:crypto';
import { ResultCode } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { t } from '../../platform/i18n.js';
import type { Metrics } from '../../platform/metrics.js';
import type { SmsProvider } from './sms.providers.js';
import type { SmsRepository } from './sms.repository.js';

export interface SmsSettings {
  codeTtlSeconds: number;
  resendSeconds: number;
  maxAttempts: number;
  dailyPerPhone: number;
  dailyPerIp: number;
}

export interface SmsServiceDeps {
  repo: SmsRepository;
  metrics: Pick<Metrics, 'sms'>;
  provider: SmsProvider;
  /** Server secret that keys the stored hashes. */
  key: Uint8Array;
  settings: SmsSettings;
  /**
   * The signature the message starts with (【…】): the installation's, checked at start. Never a
   * tenant's own words: the message goes out from the platform's sender (ADR 036).
   */
  signature: string;
}

export function createSmsService({ repo, metrics, provider, key, settings, signature }: SmsServiceDeps) {
  const hash = (tenantId: number, phone: string, purpose: number, code: string) =>
    createHmac('sha256', key).update(`${tenantId}:${phone}:${purpose}:${code}`).digest('base64url');

  return {
    /** Sends a new code; throws 429 with a message a person understands when it may not. */
    async sendCode(tenantId: number, phone: string, purpose: number, ip: string): Promise<void> {
      // The checks and the new code under a lock, committed at once; the message is sent after, so
      // no database connection or lock waits on a gateway.
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const id = await repo.locked(tenantId, phone, purpose, ip, async (tx) => {
        const c = await repo.counts(tx, tenantId, phone, purpose, ip);
        if (c.sinceLastSeconds !== null && c.sinceLastSeconds < settings.resendSeconds) {
          metrics.sms('refused');
          const wait = Math.ceil(settings.resendSeconds - c.sinceLastSeconds);
          throw new AppError(ResultCode.TOO_MANY_REQUESTS, 'smsCooldown', { seconds: wait });
        }
        if (c.phoneToday >= settings.dailyPerPhone || c.ipToday >= settings.dailyPerIp) {
          metrics.sms('refused');
          throw new AppError(ResultCode.TOO_MANY_REQUESTS, 'smsDailyCap');
        }
        return repo.replaceCode(tx, {
          tenantId,
          phone,
          purpose,
          codeHash: hash(tenantId, phone, purpose, code),
          ip,
          ttlSeconds: settings.codeTtlSeconds,
        });
      });
      try {
        // In Chinese whatever the page's language: the numbers are mainland ones (docs/product/validation.md#mobile), as is the carrier's template.
        const minutes = Math.round(settings.codeTtlSeconds / 60);
        await provider.send({
          tenantId,
          phone,
          purpose,
          text: t('zh', 'smsText', { site: signature, code, minutes }),
        });
        metrics.sms('sent');
      } catch {
        // Nothing was sent, so nothing is kept: no cooldown, nothing counted against the caps.
        metrics.sms('failed');
        await repo.forget(id);
        throw new AppError(ResultCode.UNAVAILABLE, 'smsSendFailed');
      }
    },

    /** True when `code` is the live code of this phone and purpose (and spends it). */
    async checkCode(tenantId: number, phone: string, purpose: number, code: string): Promise<boolean> {
      if (!/^\d{6}$/.test(code)) return false;
      return (
        (await repo.attempt(tenantId, phone, purpose, hash(tenantId, phone, purpose, code), settings.maxAttempts)) ===
        'ok'
      );
    },
  };
}

export type SmsService = ReturnType<typeof createSmsService>;
