/**
 * `npm start`: opens the database (PGlite under DATA_DIR, or DATABASE_URL), applies migrations,
 * creates the demo company on an empty database, and serves the API and the web app on PORT.
 * SIGTERM/SIGINT stop it gracefully: no new connections, in-flight requests finish, then the
 * database closes cleanly.
 */
import { buildApp } from './app';
import type { App } from './http/route';
import { loadConfig } from './config';
import { type Database, openDatabase } from './db/database';
import { DataDirInUseError, lockDataDir } from './db/lock';
import { migrate } from './db/migrations';
import { seedDemoIfEmpty } from './demo/index';
import { scheduleCleanUp } from './housekeeping';

async function main() {
  const config = loadConfig();
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  let database: Database | undefined;
  let app: App | undefined;
  try {
    database = await openDatabase(config);
    await migrate(database.db as never);
    app = await buildApp(config, database);
    if (config.seedDemo) {
      const demo = await seedDemoIfEmpty(database.db, config.dataDir, config.publicUrl);
      if (demo) console.log(`\n${demo}`);
    }
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A start that fails (port taken, database unreachable) leaves nothing behind: no lock, no open database.
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    unlock();
    throw error;
  }
  const running = { app, database };
  const stopCleanUp = scheduleCleanUp(database.db, database.kind, (error) => running.app.log.error({ err: error }, 'clean-up failed'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    stopCleanUp();
    // A keep-alive connection whose last request finishes during the shutdown would hold the server
    // open until the client drops it (Fastify's keepAliveTimeout is 72 s): close it once idle instead.
    running.app.server.keepAliveTimeout = 1;
    // The database closes after the app: onClose hooks run last-added first, so a hook here would
    // close it before the app's own (the change hub's UNLISTEN), which then fails on a closed PGlite.
    let code = 0;
    try {
      await running.app.close();
    } catch (error) {
      running.app.log.error({ err: error }, 'shutdown failed');
      code = 1;
    }
    await running.database.close();
    unlock();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  console.log(`Grow Room is running on http://localhost:${config.port} (database: ${database.kind}${config.databaseUrl ? '' : `, ${config.dataDir}`})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
});
