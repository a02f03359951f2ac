/** The signed-in company's local document (settings, users inside), kept current by the sync worker. */
import type { CompanyDocumentRecord } from '../../../common/schemas/companies';
import type { CompanySettings } from '../../../common/schemas/settings';
import type { UserRecord } from '../../../common/schemas/users';
import { useLocalDocument } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';

/**
 * The company's local document: the server's (common/schemas/companies.ts `companyDocument`), each
 * field null where a document lacks it, and settings as pending changes patch them.
 */
export type CompanyDocument = LocalDocument & { [K in keyof Omit<CompanyDocumentRecord, 'company_id' | 'settings'>]: CompanyDocumentRecord[K] | null } & {
  company_id: number;
  settings: Partial<CompanySettings> | null;
};

/** The company's document: null while loading and until the first pull brought it (then `loading` is false). */
export function useCompany(companyId: number | undefined) {
  return useLocalDocument<CompanyDocument>('company', companyId === undefined ? undefined : String(companyId));
}

/** A user's name as people read it: first and last name, else the email. */
export function userName(user: Pick<UserRecord, 'first_name' | 'last_name' | 'email'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.email;
}
