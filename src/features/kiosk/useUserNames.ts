/**
 * Names of the users whose changes or sessions this tablet holds, as people read them: from the
 * company documents on the tablet (their `users`), else the name a kiosk member was given when they
 * set their PIN, else "User 12". Works signed out too (the switch screen has nobody signed in).
 */
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { kioskMembers } from '../../api/kiosk';
import type { CompanyUser } from '../../api/users';
import { useLocalQuery } from '../../app/hooks';
import { kiosk } from '../../app/services';
import type { CompanyDocument } from '../company/useCompany';
import { userName } from '../company/useCompany';
import { kioskMessages } from '../../../common/messages/kiosk';
import { translateMessage } from '../../i18n/messages';
import { kioskTexts } from './texts';

export function useUserNames(): (userId: number | null) => string {
  const { t } = useTranslation(kioskTexts);
  // Every company document on the tablet: a handful at most, and there is none signed in on the switch screen.
  const companies = useLocalQuery<CompanyDocument>('company', {}, 'all');
  const names = useMemo(() => {
    const byId = new Map<number, string>();
    for (const company of companies.documents) {
      for (const user of (Array.isArray(company.users) ? company.users : []) as CompanyUser[]) byId.set(user.user_id, userName(user));
    }
    return byId;
  }, [companies.documents]);
  // The kiosk's members are read at each call: local storage, changed by switches, not observable.
  return useCallback(
    (userId: number | null) => {
      // Changes recorded before entries named their author belong to nobody in particular.
      if (userId === null) return t('unnamedChanges');
      return names.get(userId) ?? kioskMembers(kiosk).find((member) => member.userId === userId)?.name ?? translateMessage(kioskMessages.unnamed(userId));
    },
    [names, t],
  );
}
