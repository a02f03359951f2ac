/**
 * The embedded database belongs to one process at a time: PGlite has no locking of its own, and two
 * processes writing one data directory would corrupt it. The server and the CLI both take this lock.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws DataDirInUseError; returns the release function. A dead owner's lock is taken over. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new DataDirInUseError(
          `The embedded database in ${dataDir} is in use by another process (pid ${owner}). Stop the server first, or set DATABASE_URL to use a PostgreSQL server.`,
        );
      }
      // Move the dead owner's lock aside: rename is atomic, so of two processes taking over, one wins.
      try {
        renameSync(file, `${file}.stale-${process.pid}`);
        rmSync(`${file}.stale-${process.pid}`, { force: true });
      } catch (renameError) {
        if ((renameError as NodeJS.ErrnoException).code !== 'ENOENT') throw renameError;
      }
    }
  }
  throw new DataDirInUseError(`Could not lock ${dataDir}.`);
}
