/**
 * The forms' texts (src/i18n): the builder, the fill screen and the one form renderer, and the names of
 * the app's form categories and field types. English bundled here; Spanish and Dutch load as needed.
 */
import { DEFAULT_FORM_CATEGORY, FIELD_TYPES, type FieldType, type FormCategory, isFormCategory } from '../../../common/messages/forms';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const formsTexts = registerTexts('forms', en);

const CATEGORY_KEYS = {
  Scouting: 'scouting',
  'Sticky Trap': 'stickyTrap',
  Treatment: 'treatment',
  Task: 'task',
  General: 'general',
} as const satisfies Record<FormCategory, string>;

/** A form category as the reader reads it ("Sticky Trap" → "Vangplaat"); none is a scouting form; a value that is no category shows as stored. */
export function categoryName(category: FormCategory | string | null | undefined): string {
  const value = category || DEFAULT_FORM_CATEGORY;
  return isFormCategory(value) ? i18next.t(`categories.${CATEGORY_KEYS[value]}`, { ns: formsTexts }) : value;
}

/** A field type as the reader reads it ("Dropdown" → "Keuzelijst"); a value that is no type shows as stored. */
export function fieldTypeName(type: FieldType | string): string {
  if (!(FIELD_TYPES as readonly string[]).includes(type)) return type;
  return i18next.t(`fieldTypes.${type.toLowerCase() as Lowercase<FieldType>}`, { ns: formsTexts });
}
