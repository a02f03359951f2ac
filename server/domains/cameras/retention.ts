/**
 * Camera images are kept CAMERA_RETENTION_DAYS (90 by default) after they were taken, then removed
 * with their files (the image and its thumbnail: rows and bytes). A camera every 5 minutes makes 288
 * images a day; kept for ever they would fill the server's disk.
 *
 * Run by an hourly pg-boss schedule (jobs.ts: one instance runs each tick), not by the per-instance
 * housekeeping of server/housekeeping.ts: that one has no file store, and every instance would run it.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** Images removed per statement: a first run over a year of images does not hold the database long. */
const SLICE = 500;

/**
 * Removes the images taken before `days` days before `now`, with their files; `removeBytes` deletes a
 * stored file's bytes by its storage key (a file already gone is not an error). Answers how many
 * images were removed.
 */
export async function removeExpiredCameraImages(db: Kysely<DB>, removeBytes: (storageKey: string) => Promise<void>, days: number, now: Date = new Date()): Promise<number> {
  if (days <= 0) return 0;
  const before = new Date(now.getTime() - days * 86_400_000);
  let removed = 0;
  for (;;) {
    const keys = await db.transaction().execute(async (trx) => {
      const expired = await trx.selectFrom('camera_images').select(['id', 'file_id', 'thumbnail_file_id']).where('captured_at', '<', before).orderBy('captured_at').limit(SLICE).execute();
      if (expired.length === 0) return null;
      const fileIds = expired.flatMap((image) => (image.thumbnail_file_id === null ? [image.file_id] : [image.file_id, image.thumbnail_file_id]));
      await trx
        .deleteFrom('camera_images')
        .where(
          'id',
          'in',
          expired.map((image) => image.id),
        )
        .execute();
      const files = await trx.deleteFrom('files').where('id', 'in', fileIds).returning('storage_key').execute();
      removed += expired.length;
      return files.map((file) => file.storage_key).filter(Boolean);
    });
    if (keys === null) return removed;
    // After the commit: bytes of rows that stay (a rolled-back slice) are never removed.
    for (const key of keys) await removeBytes(key);
  }
}
