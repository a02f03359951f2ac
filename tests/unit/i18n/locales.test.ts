/**
 * Every language has every text (issue 18): each feature's Spanish and Dutch texts hold exactly the
 * keys of its English (plural keys in each language's own plural forms), with the same values filled in,
 * none empty; and every spec message (common/messages) has its Spanish and Dutch translation, with its
 * values. A text added in English only, or a message added to the spec's tables, fails here.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS } from '../../../common/plant-problems';
import { LANGUAGES } from '../../../common/i18n/languages';
import { messageKeys } from '../../../common/i18n/message-patterns';
import type { CatalogueTranslation } from '../../../src/features/plant-problems/catalogue-texts';
import { notificationTexts } from '../../../server/notifications/texts';

type Texts = { [key: string]: string | Texts };

// Each feature's texts, and the first page's own (src/app/locales, the 'app' namespace).
const featureTexts = import.meta.glob<Texts>(['../../../src/features/*/locales/*.json', '../../../src/app/locales/*.json'], { eager: true, import: 'default' });
const localesOf = (namespace: string, language: string) => featureTexts[namespace === 'app' ? `../../../src/app/locales/${language}.json` : `../../../src/features/${namespace}/locales/${language}.json`];
const messageTranslations = import.meta.glob<Record<string, string>>('../../../common/i18n/messages/*.json', { eager: true, import: 'default' });
const catalogueTranslations = import.meta.glob<CatalogueTranslation>('../../../src/features/plant-problems/catalogue/*.json', { eager: true, import: 'default' });
const noticeTranslations = import.meta.glob<Record<string, string>>('../../../server/notifications/locales/*.json', { eager: true, import: 'default' });
const specMessageModules = import.meta.glob<Record<string, unknown>>('../../../common/messages/*.ts', { eager: true });

const TRANSLATED = LANGUAGES.filter((language) => language !== 'en');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Flat `a.b.c` → text. */
function flatten(texts: Texts, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value === 'string') flat.set(prefix + key, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

/** The keys a language must have for the English keys: a plural key in each of the language's plural forms. */
function expectedKeys(english: Map<string, string>, language: string): string[] {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of english.keys()) {
    if (PLURAL_SUFFIX.test(key)) for (const form of forms) keys.add(key.replace(PLURAL_SUFFIX, `_${form}`));
    else keys.add(key);
  }
  return [...keys].sort();
}

/** The values a text fills in: {{name}} (formatting options aside). */
const valuesOf = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1]).sort();

/** The English text a plural or plain key of another language stands for. */
function englishFor(english: Map<string, string>, key: string): string | undefined {
  return english.get(key) ?? english.get(key.replace(PLURAL_SUFFIX, '_other'));
}

const features = [...new Set(Object.keys(featureTexts).map((path) => /(?:features\/([^/]+)|src\/(app))\/locales/.exec(path)?.slice(1).find(Boolean) ?? ''))].sort();

describe('the interface texts of every feature, in every language', () => {
  it('has texts for features', () => {
    expect(features.length).toBeGreaterThan(20);
  });

  for (const feature of features) {
    const english = flatten(localesOf(feature, 'en') ?? {});
    for (const language of TRANSLATED) {
      it(`${feature}: ${language} has exactly the English keys, the same values filled in, none empty`, () => {
        const translated = flatten(localesOf(feature, language) ?? {});
        expect([...translated.keys()].sort()).toEqual(expectedKeys(english, language));
        for (const [key, text] of translated) {
          expect(text.trim(), `${feature}:${key} (${language}) is empty`).not.toBe('');
          const source = englishFor(english, key);
          // A plural form may leave out the count ("one box"), never add a value English lacks.
          const allowed = new Set(valuesOf(source ?? ''));
          for (const value of valuesOf(text)) expect(allowed.has(value), `${feature}:${key} (${language}) fills in {{${value}}}, which English does not`).toBe(true);
          if (!PLURAL_SUFFIX.test(key)) expect(valuesOf(text), `${feature}:${key} (${language})`).toEqual(valuesOf(source ?? ''));
        }
      });
    }
  }
});

/** Every spec message in English: its text, or for a message built around values, its pattern with {{0}}, {{1}}…. */
function specMessages(): Set<string> {
  const messages = new Set<string>();
  for (const module of Object.values(specMessageModules))
    for (const exported of Object.values(module)) if (exported && typeof exported === 'object' && !Array.isArray(exported)) for (const key of messageKeys(exported)) messages.add(key);
  return messages;
}

describe('the spec’s messages, in every language', () => {
  const messages = specMessages();

  it('are read from common/messages', () => {
    expect(messages.size).toBeGreaterThan(500);
    expect(messages).toContain('Location is required.');
  });

  for (const language of TRANSLATED) {
    it(`${language}: every message translated with its values, and nothing that is no message`, () => {
      const translations = messageTranslations[`../../../common/i18n/messages/${language}.json`] ?? {};
      const missing = [...messages].filter((message) => !translations[message]?.trim());
      expect(missing, `messages without a ${language} translation`).toEqual([]);
      const stale = Object.keys(translations).filter((message) => !messages.has(message));
      expect(stale, `${language} translations of messages the spec's tables no longer hold`).toEqual([]);
      for (const message of messages) expect(valuesOf(translations[message] ?? ''), `${language}: ${message}`).toEqual(valuesOf(message));
    });
  }
});

describe('what the server sends people (mail, Slack, Teams), in every language', () => {
  const notices = messageKeys(notificationTexts);

  for (const language of TRANSLATED) {
    it(`${language}: every text translated with its values, and nothing that is no text`, () => {
      expect(notices.size).toBeGreaterThan(80);
      const translations = noticeTranslations[`../../../server/notifications/locales/${language}.json`] ?? {};
      expect([...notices].filter((notice) => !translations[notice]?.trim()), `texts without a ${language} translation`).toEqual([]);
      expect(Object.keys(translations).filter((notice) => !notices.has(notice)), `${language} translations of texts server/notifications/texts.ts no longer holds`).toEqual([]);
      for (const notice of notices) expect(valuesOf(translations[notice] ?? ''), `${language}: ${notice}`).toEqual(valuesOf(notice));
    });
  }
});

describe('the plant problem catalogue, in every language', () => {
  for (const language of TRANSLATED) {
    it(`${language}: every problem's name, category, description, look-alikes and solutions, and every symptom, group and colour`, () => {
      const translation = catalogueTranslations[`../../../src/features/plant-problems/catalogue/${language}.json`];
      expect(translation).toBeDefined();
      const filled = (text: string | undefined) => typeof text === 'string' && text.trim() !== '';
      const gaps: string[] = [];
      for (const problem of CATALOGUE) {
        const words = translation?.problems[problem.slug];
        if (!words || !filled(words.name) || !filled(words.category) || !filled(words.description)) gaps.push(problem.slug);
        for (const lookAlike of problem.look_alikes) if (!filled(words?.look_alikes[lookAlike.slug])) gaps.push(`${problem.slug} look-alike ${lookAlike.slug}`);
        if (words?.solutions.length !== problem.solutions.length || !words.solutions.every(filled)) gaps.push(`${problem.slug} solutions`);
      }
      for (const symptom of SYMPTOMS) if (!filled(translation?.symptoms[symptom.slug])) gaps.push(`symptom ${symptom.slug}`);
      for (const group of SYMPTOM_GROUPS) if (!filled(translation?.symptom_groups[group.slug])) gaps.push(`group ${group.slug}`);
      for (const color of COLOR_SYMPTOMS) if (!filled(translation?.color_symptoms[color.slug])) gaps.push(`colour ${color.slug}`);
      expect(gaps).toEqual([]);
      expect(Object.keys(translation?.problems ?? {}).sort()).toEqual(CATALOGUE.map((problem) => problem.slug).sort());
    });
  }
});
