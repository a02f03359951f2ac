/**
 * Applying the reader's language (choice.ts says which): the signed-in frame follows the company's
 * language as the local store holds it, and the settings screen sets or clears the tablet's override.
 * A change re-renders every screen in the new language at once (react-i18next); Spanish and Dutch texts
 * load as they are needed.
 */
import { useCallback, useEffect, useState } from 'react';
import { keepChoice, keptChoice, readerLanguage } from './choice';
import { i18next } from './i18n';
import type { Language } from '../../common/i18n/languages';

function apply(choice: ReturnType<typeof keptChoice>): void {
  keepChoice(choice);
  const language = readerLanguage(choice);
  if (i18next.resolvedLanguage !== language) void i18next.changeLanguage(language);
}

/** Follows the company's language (its code as stored; undefined while it is being read). */
export function useCompanyLanguage(code: string | null | undefined): void {
  useEffect(() => {
    if (code === undefined) return;
    const choice = keptChoice();
    if (choice.company !== code || readerLanguage(choice) !== i18next.resolvedLanguage) apply({ ...choice, company: code });
  }, [code]);
}

/** This tablet's own language (null: the company's), and the setter the settings screen offers. */
export function useTabletLanguage(): [Language | null, (language: Language | null) => void] {
  const [choice, setChoice] = useState(() => keptChoice().tablet);
  const choose = useCallback((language: Language | null) => {
    setChoice(language);
    apply({ ...keptChoice(), tablet: language });
  }, []);
  return [choice, choose];
}
