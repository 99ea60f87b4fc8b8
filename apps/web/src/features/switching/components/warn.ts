import { ownMessage } from '../../../lib/api/client';
import { toast } from '../../../lib/feedback';

/**
 * What a switching dialog says about a failure the one failure handler has not shown: the API's
 * refusals it shows itself (docs/product/errors.md#dialogs: a warning for nickname, switch and password calls, an error for an
 * enterprise switch), so this speaks only for a failure outside the API (the password's encryption).
 */
export const warn = (err: unknown, level: 'warning' | 'error' = 'warning'): void => {
  const text = ownMessage(err);
  if (text) toast(level, text);
};
