import { randomId } from './crypto';
import { storage } from './storage';

/**
 * The random id this browser gives captcha calls (docs/product/data.md#local-storage): it binds
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
