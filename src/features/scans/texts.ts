/** The scan screens' texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. */
import type { ScanType } from '../../../common/schemas/scans';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const scansTexts = registerTexts('scans', en);

/** A scan's type as the reader reads it ("Disease scan"). */
export const scanTypeName = (type: ScanType) => i18next.t(`scanType.${type}`, { ns: scansTexts });
