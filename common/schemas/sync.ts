import { z } from 'zod';
import { syncMessages as m } from '../messages/sync';
import { optionalId } from './fields';

/** A pull checkpoint: the last document's transaction id and change sequence, `<xid>:<seq>`. */
export const CHECKPOINT_PATTERN = /^(\d{1,20}):(\d{1,20})$/;

export const pullQuery = z.object({
  collection: z.string({ error: m.collectionUnknown('') }).min(1, { error: m.collectionUnknown('') }),
  checkpoint: z.string().regex(CHECKPOINT_PATTERN, { error: m.checkpointInvalid }).or(z.literal('')).optional(),
  limit: z.coerce.number({ error: m.limitInvalid }).int({ error: m.limitInvalid }).min(1, { error: m.limitInvalid }).max(1000, { error: m.limitInvalid }).default(200),
  company_id: optionalId(),
});

export const streamQuery = z.object({ company_id: optionalId() });

/** Document ids as the pull gives them (`12`, or `<kind>:12` in a collection of several kinds), comma-joined. */
export const documentsQuery = z.object({
  collection: z.string({ error: m.collectionUnknown('') }).min(1, { error: m.collectionUnknown('') }),
  ids: z
    .string({ error: m.idsInvalid })
    .transform((value) => value.split(',').map((id) => id.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^([a-z_]+:)?\d{1,10}$/, { error: m.idsInvalid }), { error: m.idsInvalid }).min(1, { error: m.idsInvalid }).max(1000, { error: m.idsInvalid })),
  company_id: optionalId(),
});
