import { randomId } from './crypto';
import { storage } from './storage';

/**
 * The random id this browser gives captcha calls (spec §3 "captcha client identifiers"): it binds
 * a login image captcha to the browser and is AJ-Captcha's `clientUid`. Made once, then kept.
 */
export function captchaClientId(): string {
  let id = storage.get<string>('captchaClientId');
  if (!id) {
    id = randomId(24);
    storage.set('captchaClientId', id);
  }
  return id;
}
