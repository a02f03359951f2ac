/**
 * `npm start`: opens the database (PGlite under DATA_DIR, or DATABASE_URL), applies migrations,
 * creates the demo company on an empty database, and serves the API and the web app on PORT.
 * SIGTERM/SIGINT stop it gracefully: no new connections, in-flight requests finish, then the
 * database closes cleanly.
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { DataDirInUseError, lockDataDir } from './db/lock';
import { migrate } from './db/migrations';
import { seedDemoIfEmpty } from './demo';
import { scheduleCleanUp } from './housekeeping';

async function main() {
  const config = loadConfig();
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const database = await openDatabase(config);
  await migrate(database.db as never);
  const app = await buildApp(config, database);
  app.addHook('onClose', async () => {
    await database.close();
    unlock();
  });
  const stopCleanUp = scheduleCleanUp(database.db, (error) => app.log.error({ err: error }, 'clean-up failed'));

  if (config.seedDemo) {
    const demo = await seedDemoIfEmpty(database.db, config.dataDir, config.publicUrl);
    if (demo) console.log(`\n${demo}`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    stopCleanUp();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  console.log(`Grow Room is running on http://localhost:${config.port} (database: ${database.kind}${config.databaseUrl ? '' : `, ${config.dataDir}`})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
});
