/**
 * Phase 4b: raw passkey assertion verifications (@simplewebauthn/server's verifyAuthenticationResponse
 * with the options the server uses: RP ID, origin, user verification required, an ES256 key) in
 * this process → verifications/s, and its ratio to argon2id verifies of the same run: what a
 * passwordless sign-in costs against the password check it replaces. The answers are made
 * beforehand by the tests' software authenticator (node:crypto), so only verification is timed.
 *
 * Then, in the same run against the same argon2id baseline: TOTP code checks as the factor step
 * makes them (modules/factors/secrets.ts: the stored secret decrypted with AES-256-GCM, the code
 * checked with otpauth within one step either side: `totpStepOf(decryptSecret(key, cipher), code)`),
 * without the two database statements around it (the lockout reservation and the replay guard).
 */
import { performance } from 'node:perf_hooks';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import {
  decryptSecret,
  encryptSecret,
  newTotpSecret,
  totpOf,
  totpStepOf,
} from '../../../apps/server/src/modules/factors/secrets.js';
import { createAuthenticator } from '../../../apps/server/src/test/authenticator.js';
import { round } from '../../common.js';
import { cpuMeter } from '../cpu.js';
import { log, settings } from '../settings.js';

const RP = { id: 'portal.example', origin: 'https://portal.example' };

export async function benchPasskeys(argon2PerSec: number | null) {
  const device = createAuthenticator({ origin: RP.origin, rpId: RP.id });
  const creation = await generateRegistrationOptions({
    rpName: RP.id,
    rpID: RP.id,
    userName: 'bench',
    attestationType: 'none',
    supportedAlgorithmIDs: [-7],
  });
  const registered = await verifyRegistrationResponse({
    response: device.create(creation),
    expectedChallenge: creation.challenge,
    expectedOrigin: RP.origin,
    expectedRPID: RP.id,
  });
  if (!registered.verified) throw new Error('passkeys: the registration did not verify');
  const { credential } = registered.registrationInfo;
  // Answers signed beforehand, each with its own challenge and the next counter.
  const answers = await Promise.all(
    Array.from({ length: 2000 }, async (_, i) => {
      const options = await generateAuthenticationOptions({ rpID: RP.id, userVerification: 'required' });
      return { challenge: options.challenge, counter: i, answer: device.get(options) };
    }),
  );
  log(`passkeys: ${settings.argon2Seconds} s, concurrency ${settings.argon2Concurrency}, ES256`);
  let count = 0;
  let next = 0;
  const meter = cpuMeter();
  const started = performance.now();
  const deadline = started + settings.argon2Seconds * 1000;
  await Promise.all(
    Array.from({ length: settings.argon2Concurrency }, async () => {
      while (performance.now() < deadline) {
        const a = answers[next++ % answers.length]!;
        const result = await verifyAuthenticationResponse({
          response: a.answer,
          expectedChallenge: a.challenge,
          expectedOrigin: RP.origin,
          expectedRPID: RP.id,
          requireUserVerification: true,
          credential: { ...credential, counter: a.counter },
        });
        if (!result.verified) throw new Error('passkeys: an assertion did not verify');
        count++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = meter();
  const perSec = round(count / seconds, 1);
  const ratioToArgon2 = argon2PerSec ? round(perSec / argon2PerSec, 2) : null;
  log(
    `passkeys: ${count} verifications in ${round(seconds)} s = ${perSec}/s (× ${ratioToArgon2 ?? 'n/a'} argon2); CPU (% of machine) bench ${cpu.benchPct}, other processes ${cpu.foreignPct}`,
  );
  return {
    verifications: count,
    seconds: round(seconds, 3),
    perSec,
    ratioToArgon2,
    cpu,
    totp: benchTotp(argon2PerSec),
  };
}

/**
 * TOTP checks per second (one thread: the check is synchronous, as in the server), a right code for
 * the current step, and the ratio to argon2id verifies of the same run.
 */
function benchTotp(argon2PerSec: number | null) {
  const key = randomBytes(32);
  const secret = newTotpSecret();
  const cipher = encryptSecret(key, secret);
  log(`totp: ${settings.argon2Seconds} s, AES-256-GCM decrypt + otpauth check (window ±1 step), one thread`);
  let code = totpOf(secret).generate();
  let count = 0;
  const meter = cpuMeter();
  const started = performance.now();
  const deadline = started + settings.argon2Seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) {
      if (totpStepOf(decryptSecret(key, cipher), code) === null) {
        // The step turned between making the code and checking it past the window: a new one.
        code = totpOf(secret).generate();
        if (totpStepOf(decryptSecret(key, cipher), code) === null) throw new Error('totp: a right code was refused');
      }
      count++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = meter();
  const perSec = round(count / seconds, 1);
  const ratioToArgon2 = argon2PerSec ? round(perSec / argon2PerSec, 2) : null;
  log(
    `totp: ${count} checks in ${round(seconds)} s = ${perSec}/s (× ${ratioToArgon2 ?? 'n/a'} argon2); CPU (% of machine) bench ${cpu.benchPct}, other processes ${cpu.foreignPct}`,
  );
  return { checks: count, seconds: round(seconds, 3), perSec, ratioToArgon2, cpu };
}
