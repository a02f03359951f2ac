/**
 * The texts the first page may show before any feature's code has loaded (src/i18n): a screen loading,
 * a part of the app not saved for offline yet, a page that does not exist, and the shared form controls
 * every screen uses (features/shell/forms.tsx, the sign-in form's too). Their own small namespace, so
 * the first page does not carry the app frame's texts (issue 13's budget for the sign-in page).
 */
import { registerTexts } from '../i18n/i18n';
import en from './locales/en.json';

export const appTexts = registerTexts('app', en);
