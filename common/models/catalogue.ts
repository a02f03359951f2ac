/**
 * The models a company's `ai_model` setting may name (issue 17): the two built-in analyses, always
 * there with no file, and the company's own uploaded classifiers, named by a key made from their name.
 * Both sides use it: the server to check the setting and list the models, the tablet to show them.
 */
import { modelMessages as m } from '../messages/models';

/**
 * The built-in analyses, listed first. `plantDiseaseRecognition` keeps the spec's default setting
 * working; it is the leaf-colour analysis (common/vision), not a trained disease classifier.
 */
export const BUILT_IN_MODELS = [
  { key: 'plantDiseaseRecognition', analysis: 'leaf_colour', name: m.leafColourName, description: m.leafColourDescription },
  { key: 'stickyTrapCounter', analysis: 'sticky_trap', name: m.stickyTrapName, description: m.stickyTrapDescription },
] as const;

export type BuiltInModel = (typeof BUILT_IN_MODELS)[number];
export type BuiltInModelKey = BuiltInModel['key'];

export const BUILT_IN_MODEL_KEYS = BUILT_IN_MODELS.map((model) => model.key) as BuiltInModelKey[];

export function builtInModel(key: string): BuiltInModel | undefined {
  return BUILT_IN_MODELS.find((model) => model.key === key);
}

/** The prefix of every uploaded model's key: no built-in key starts with it, so the two never meet. */
export const CUSTOM_MODEL_PREFIX = 'custom-';

/** Longest slug of a name kept in a key (the setting takes keys of up to 100 characters). */
const SLUG_MAX = 60;

/**
 * The key of an uploaded model's name: `custom-` and the name's letters and digits in lower case,
 * other characters as single dashes ("Leaf Spot v2!" → `custom-leaf-spot-v2`). Names with the same key
 * are one model: uploading under one makes its next version. Letters beyond ASCII lose their accents
 * ("Pétale" → `custom-petale`); a name with no letter or digit left has no key (null).
 */
export function modelKeyOf(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug ? `${CUSTOM_MODEL_PREFIX}${slug}` : null;
}
