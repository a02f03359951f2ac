/** The signed-in company's local document (settings, users inside), kept current by the sync worker. */
import type { CompanySettings } from '../../../common/schemas/settings';
import type { CompanyUser } from '../../api/users';
import { useLocalDocument } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';

export type CompanyDocument = LocalDocument & {
  company_id: number;
  company_name: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  company_type: string | null;
  created_at: string | null;
  settings: Partial<CompanySettings> | null;
  users: CompanyUser[] | null;
};

/** The company's document: null while loading and until the first pull brought it (then `loading` is false). */
export function useCompany(companyId: number | undefined) {
  return useLocalDocument<CompanyDocument>('company', companyId === undefined ? undefined : String(companyId));
}

/** A user's name as people read it: first and last name, else the email. */
export function userName(user: Pick<CompanyUser, 'first_name' | 'last_name' | 'email'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.email;
}
