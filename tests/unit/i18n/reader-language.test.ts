/**
 * The reader's language (src/i18n): which language a reader gets, the spec's messages in it (plain and
 * built around values), and dates and numbers as that language writes them. Through the app's own
 * i18next instance, its Spanish and Dutch catalogues loaded as a tablet loads them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { auditTitleParts, PART_SEPARATOR } from '../../../common/messages/audit-title-parts';
import { auditTitles } from '../../../common/messages/audit-titles';
import { sessionMessages } from '../../../common/messages/session';
import { weatherMessages } from '../../../common/messages/weather';
import { readerLanguage } from '../../../src/i18n/choice';
import { formatDate, formatNumber, weekStartDay } from '../../../src/i18n/format';
import { i18next, MESSAGES_NAMESPACE } from '../../../src/i18n/i18n';
import { supportedLanguage } from '../../../common/i18n/languages';
import { messageOf, translateMessage } from '../../../src/i18n/messages';
import spanish from '../../../common/i18n/messages/es.json';
import dutch from '../../../common/i18n/messages/nl.json';

afterAll(async () => {
  await i18next.changeLanguage('en');
});

describe('which language a reader gets', () => {
  it('the tablet’s own choice first, then the company’s, English for a language the app does not speak', () => {
    expect(readerLanguage({ tablet: 'nl', company: 'es' })).toBe('nl');
    expect(readerLanguage({ tablet: null, company: 'es' })).toBe('es');
    expect(readerLanguage({ tablet: null, company: 'es-MX' })).toBe('es');
    expect(readerLanguage({ tablet: null, company: 'fr' })).toBe('en');
  });

  it('reads language codes by their first part, and nothing else', () => {
    expect(supportedLanguage('nl-BE')).toBe('nl');
    expect(supportedLanguage('EN_gb')).toBe('en');
    expect(supportedLanguage('pt-BR')).toBeNull();
    expect(supportedLanguage(42)).toBeNull();
  });
});

describe('the spec’s messages in the reader’s language', () => {
  it('English readers see the spec’s words as they are', async () => {
    await i18next.changeLanguage('en');
    expect(translateMessage(sessionMessages.locationRequired)).toBe(sessionMessages.locationRequired);
  });

  for (const [language, catalogue] of [['es', spanish], ['nl', dutch]] as const) {
    it(`${language}: a message by its English text, one built around a value with the value kept, and a text that is no message as it came`, async () => {
      await i18next.changeLanguage(language);
      await i18next.loadNamespaces(MESSAGES_NAMESPACE);
      const translated = (catalogue as Record<string, string>)[sessionMessages.locationRequired];
      expect(translated).toBeTruthy();
      expect(translated).not.toBe(sessionMessages.locationRequired);
      expect(translateMessage(sessionMessages.locationRequired)).toBe(translated);
      expect(messageOf(new Error(sessionMessages.locationRequired))).toBe(translated);

      const withPlace = translateMessage(weatherMessages.placeNotFound('Delft, Zuid-Holland'));
      expect(withPlace).toBe(((catalogue as Record<string, string>)[weatherMessages.placeNotFound('{{0}}')] ?? '').replace('{{0}}', 'Delft, Zuid-Holland'));
      expect(withPlace).toContain('Delft, Zuid-Holland');

      expect(translateMessage('The camera said: 503 Slow Down')).toBe('The camera said: 503 Slow Down');

      // Where two patterns fit, the one with more fixed text: an audit title, not a queued change's name.
      const titled = auditTitles.setColour('{{0}}', '{{1}}', '{{2}}');
      expect(translateMessage(auditTitles.setColour('Rust', '#f00', 'RU'))).toBe(((catalogue as Record<string, string>)[titled] ?? '').replace('{{0}}', 'Rust').replace('{{1}}', '#f00').replace('{{2}}', 'RU'));
    });

    it(`${language}: the server's words inside a title's value translated too (a rule and its schedule, each corrected answer); a name that reads like them kept`, async () => {
      await i18next.changeLanguage(language);
      await i18next.loadNamespaces(MESSAGES_NAMESPACE);
      const words = catalogue as Record<string, string>;
      const fill = (pattern: string, ...values: string[]) => values.reduce((text, value, index) => text.replace(`{{${index}}}`, value), words[pattern] ?? '');
      const parts = auditTitleParts;

      const schedule = parts.schedule.weekly.Monday('08:00');
      const due = parts.rule.formInRoomDue('Weekly scouting', 'Flower 1', schedule);
      expect(translateMessage(auditTitles.createdNotification(due, 'ana@example.com'))).toBe(
        fill(auditTitles.createdNotification('{{0}}', '{{1}}'), fill(parts.rule.formInRoomDue('{{0}}', '{{1}}', '{{2}}'), 'Weekly scouting', 'Flower 1', fill(parts.schedule.weekly.Monday('{{0}}'), '08:00')), 'ana@example.com'),
      );
      expect(translateMessage(auditTitles.deletedNotification(parts.rule.taskDone, 'Slack (hooks.slack.com)'))).toBe(fill(auditTitles.deletedNotification('{{0}}', '{{1}}'), words[parts.rule.taskDone] ?? '', 'Slack (hooks.slack.com)'));

      const answer = parts.answer;
      // An answer stored empty ("") reads as one too.
      const changes = [answer.changed('Count', '3', '4'), answer.filled('Notes', 'Leaf spots; edges'), answer.cleared('Height', '40'), answer.changed('Stage', '', 'Flowering')].join(PART_SEPARATOR);
      // The reason is the grower's own words: kept, though it reads like a part.
      const reason = 'Count from "3" to "4"';
      const changed = answer.changed('{{0}}', '{{1}}', '{{2}}');
      const answers = [fill(changed, 'Count', '3', '4'), fill(answer.filled('{{0}}', '{{1}}'), 'Notes', 'Leaf spots; edges'), fill(answer.cleared('{{0}}', '{{1}}'), 'Height', '40'), fill(changed, 'Stage', '', 'Flowering')];
      expect(translateMessage(auditTitles.correctedResponse('Weekly scouting', 12, changes, reason))).toBe(
        fill(auditTitles.correctedResponse('{{0}}', '{{1}}', '{{2}}', '{{3}}'), 'Weekly scouting', '12', answers.join(PART_SEPARATOR), reason),
      );
      expect(answers.join(PART_SEPARATOR)).not.toContain(' from ');

      // Names that split a part's values two ways leave it as stored: which " of " ends the field's name?
      const ambiguous = parts.rule.keyword('aphids', 'Number of thrips', 'Scouting');
      expect(translateMessage(auditTitles.createdNotification(ambiguous, 'ana@example.com'))).toBe(fill(auditTitles.createdNotification('{{0}}', '{{1}}'), ambiguous, 'ana@example.com'));
      const keyword = parts.rule.keyword('aphids', 'Pests', 'Scouting');
      expect(translateMessage(auditTitles.createdNotification(keyword, 'ana@example.com'))).toBe(fill(auditTitles.createdNotification('{{0}}', '{{1}}'), fill(parts.rule.keyword('{{0}}', '{{1}}', '{{2}}'), 'aphids', 'Pests', 'Scouting'), 'ana@example.com'));

      // A room named like a part stays as named; a part alone is no message; nor is a name JavaScript objects have.
      expect(translateMessage('__proto__')).toBe('__proto__');
      expect(translateMessage('constructor')).toBe('constructor');
      expect(translateMessage(auditTitles.createdRoom('Task done'))).toBe(fill(auditTitles.createdRoom('{{0}}'), 'Task done'));
      expect(translateMessage(answer.changed('Count', '3', '4'))).toBe(answer.changed('Count', '3', '4'));
    });
  }
});

describe('dates and numbers as the reader writes them', () => {
  it('writes numbers and dates in the reader’s language; weeks start on Monday', async () => {
    await i18next.changeLanguage('nl');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatDate('2026-03-02T12:00:00Z', { day: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('2 maart');
    expect(weekStartDay()).toBe(1);
    await i18next.changeLanguage('es');
    expect(formatDate('2026-03-02T12:00:00Z', { day: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('2 de marzo');
    await i18next.changeLanguage('en');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
