/**
 * The batch screens' texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. Also
 * the built-in crop statuses as the reader reads them (statusName), for any screen that shows a batch's status.
 */
import { BUILT_IN_BATCH_STATUSES } from '../../../common/batch-statuses';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const batchesTexts = registerTexts('batches', en);

/**
 * A batch status as the reader reads it: a built-in stage in the reader's language ("Flowering" →
 * "Floración"); a company's own status, a name its Admin typed, as stored.
 */
export function statusName(status: string | null | undefined): string {
  const builtIn = BUILT_IN_BATCH_STATUSES.find((name) => name === status);
  return builtIn ? i18next.t(`statuses.${builtIn}`, { ns: batchesTexts }) : (status ?? '');
}
