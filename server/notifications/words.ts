/**
 * The words the server writes to people in, per company (issue 18): the company's language
 * (set_company_language) for everything sent on its behalf (its notifications, weekly report and
 * invitations, a member's password reset); English for an account of no company (a consultant) and
 * for a language the app does not speak. Each language's words are made once, at start.
 *
 * `notice`: the messages' own words (texts.ts). `parts`: the rule and schedule in words, as the audit
 * trail stores them in English and the tablet shows them (common/messages/audit-title-parts.ts), here
 * written straight in the language, from the same translations.
 */
import type { Kysely } from 'kysely';
import { type Language, supportedLanguage } from '../../common/i18n/languages';
import { translatedTable } from '../../common/i18n/message-patterns';
import spanishMessages from '../../common/i18n/messages/es.json';
import dutchMessages from '../../common/i18n/messages/nl.json';
import { auditTitleParts } from '../../common/messages/audit-title-parts';
import type { DB } from '../db/schema';
import spanishNotices from './locales/es.json';
import dutchNotices from './locales/nl.json';
import { type NotificationTexts, notificationTexts } from './texts';

export interface Words {
  language: Language;
  notice: NotificationTexts;
  parts: typeof auditTitleParts;
}

const wordsOf = (language: Language, notices: Readonly<Record<string, string>>, messages: Readonly<Record<string, string>>): Words => ({
  language,
  notice: translatedTable(notificationTexts, notices),
  parts: translatedTable(auditTitleParts, messages),
});

const WORDS: Readonly<Record<Language, Words>> = {
  en: { language: 'en', notice: notificationTexts, parts: auditTitleParts },
  es: wordsOf('es', spanishNotices, spanishMessages),
  nl: wordsOf('nl', dutchNotices, dutchMessages),
};

/** The words of a language code as stored ("es", "es-ES"); English for one the app does not speak. */
export const wordsIn = (language: string | null | undefined): Words => WORDS[supportedLanguage(language) ?? 'en'];

/** The words of a company's language; English for no company (null), or one not found. */
export async function companyWords(db: Kysely<DB>, companyId: number | null): Promise<Words> {
  if (companyId === null) return WORDS.en;
  const company = await db.selectFrom('companies').select('language').where('id', '=', companyId).executeTakeFirst();
  return wordsIn(company?.language);
}
