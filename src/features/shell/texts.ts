/**
 * The app frame's texts (src/i18n): navigation, the sync indicator, the shared states of every screen,
 * and the words several features share (roles). English bundled here; Spanish and Dutch load as needed.
 */
import { isRole } from '../../../common/roles';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const shellTexts = registerTexts('shell', en);

/** A role as the reader reads it ("Admin" → "Beheerder"); a value that is no role shows as stored. */
export function roleName(role: string | null | undefined): string {
  return isRole(role) ? i18next.t(`roles.${role}`, { ns: shellTexts }) : (role ?? '');
}
