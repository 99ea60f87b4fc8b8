/**
 * The built portal in its own process, on the benchmark's database.
 */
import { freePort } from '../../apps/server/src/db/embedded.js';
import { startChild } from '../child.js';
import { DEMO_PASSWORD, log, RUNTIME, SERVER_MAIN } from './settings.js';

export interface Server {
  url: string;
  stop(): Promise<number | null>;
  output(): string;
}

export async function startServer(databaseUrl: string, dataDir: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startChild(
    'the portal',
    [SERVER_MAIN],
    {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORTAL_TEST_CAPTCHA: '1',
      PORTAL_RUNTIME_CONFIG: JSON.stringify(RUNTIME),
      DEMO_PASSWORD,
      LOG_LEVEL: 'info',
      // A handful of logins from one address within a minute must not be refused.
      LOGIN_RATE_PER_MINUTE: '1000000',
      CAPTCHA_RATE_PER_MINUTE: '1000000',
    },
    /Enterprise Service Portal is running: http:\/\/localhost:(\d+)\//,
  );
  log(`portal (pid ${child.process.pid}) on ${url}`);
  return { url, stop: child.stop, output: child.output };
}
