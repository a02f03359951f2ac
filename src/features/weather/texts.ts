/** Today's weather card's texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. */
import { registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const weatherTexts = registerTexts('weather', en);
