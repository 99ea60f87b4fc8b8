import { ownMessage } from '../../../lib/api/client';
import { toast } from '../../../lib/feedback';

/**
 * §8: a refused nickname, switch or password call shows the server's message as a warning (unless
 * the one failure handler has said it already: 没有操作权限, 服务器错误, a logout).
 */
export const warn = (err: unknown): void => {
  const text = ownMessage(err);
  if (text) toast('warning', text);
};
