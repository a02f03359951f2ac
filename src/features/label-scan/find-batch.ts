/**
 * Finds the batch a label names in this tablet's store: by its integer id (printed labels) or its
 * client id, as the batch-info route does (src/app/hooks.ts `localDocumentSelector`), so a label opens
 * its batch offline. Only the signed-in company's batches count: a kiosk's store may hold another
 * company's documents from an earlier session.
 */
import { localDocumentSelector } from '../../app/hooks';
import { apiContext, session } from '../../app/services';
import type { LocalBatch } from '../batches/model';
import type { ScannedBatch } from './label';

export type LabelLookup = { found: ScannedBatch } | { missing: 'batch' | 'session' };

export async function findLabelledBatch(address: string): Promise<LabelLookup> {
  const current = await session.get();
  const companyId = current?.company_id ?? null;
  if (companyId === null) return { missing: 'session' };
  const context = await apiContext();
  const document = await context.database.collections.batches.findOne({ selector: localDocumentSelector('batches', address) }).exec();
  const batch = document ? (document.toJSON() as LocalBatch) : null;
  if (!batch || batch.CompanyID !== companyId) return { missing: 'batch' };
  return { found: { id: batch.id, BatchNumber: batch.BatchNumber, address } };
}
