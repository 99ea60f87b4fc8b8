// `npm start`: on a fresh clone installs the dependencies, builds, and starts the portal on the
// embedded PostgreSQL with demo data. Later runs reinstall only when package-lock.json changed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const marker = 'node_modules/.package-lock.json';
if (!existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs) {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
run('npm', ['run', 'build']);

const server = spawn(process.execPath, ['apps/server/dist/programs/server/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
