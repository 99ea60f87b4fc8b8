import { message } from 'antd';

/** §8: a refused nickname, switch or password call shows the server's message as a warning. */
export const warn = (err: unknown): void => void message.warning(err instanceof Error ? err.message : String(err));
