// What `npm test` runs: the build, then the type check, the lint and every test at the same time.
// The tests spend much of their time waiting on PostgreSQL, servers and Chromium; the checks use
// the cores meanwhile (ADR 042). The checks' output is printed after the tests', each under its
// name; the exit code is 1 when any of the three failed.
import { spawn } from 'node:child_process';

/** Runs `npm run <script>` (or `npx <args>`); `quiet` keeps its output to print later. */
function run(command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
    }
    child.on('close', (code, signal) => resolve({ ok: code === 0, output, code: code ?? signal }));
  });
}

const build = await run('npm', ['run', 'build']);
if (!build.ok) process.exit(1);

const [typecheck, lint, tests] = await Promise.all([
  run('npm', ['run', 'typecheck'], { quiet: true }),
  run('npm', ['run', 'lint'], { quiet: true }),
  run('npx', ['vitest', 'run']),
]);
for (const [name, result] of [
  ['typecheck (tsc -b)', typecheck],
  ['lint (eslint, prettier)', lint],
]) {
  console.log(`\n── ${name}: ${result.ok ? 'passed' : `failed (${result.code})`}`);
  if (!result.ok) console.log(result.output.trim());
}
console.log(`── tests (vitest): ${tests.ok ? 'passed' : `failed (${tests.code})`}`);
process.exit(typecheck.ok && lint.ok && tests.ok ? 0 : 1);
