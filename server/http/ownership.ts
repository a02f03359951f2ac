/**
 * Which parameter names carry which kind of record, and where each kind's owning company is. The
 * tenancy guard (guards.ts) reads this one table for every request; a domain adds its kinds and its
 * parameter names here instead of checking ownership in its handlers.
 */
export interface OwnedKind {
  table: string;
  idColumn: string;
  /** Column holding the owning company's id; for the company kind itself, no lookup is needed. */
  companyColumn: string;
  /** Tombstoned records count as missing. */
  softDeleted: boolean;
}

export const OWNED_KINDS = {
  company: { table: 'companies', idColumn: 'id', companyColumn: 'id', softDeleted: true },
  user: { table: 'users', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  invitation: { table: 'invitations', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  audit_event: { table: 'audit_events', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
} satisfies Record<string, OwnedKind>;

export type OwnedKindName = keyof typeof OWNED_KINDS;

/** Parameter names (query, body or path) and the kind of record they name, as the spec spells them. */
export const OWNED_PARAMETERS: Record<string, OwnedKindName> = {
  company_id: 'company',
  CompanyID: 'company',
  companyID: 'company',
  ncompany_id: 'company',
  user_id: 'user',
  userID: 'user',
  UserID: 'user',
  user_ID: 'user',
  submittedBy: 'user',
  invitation_id: 'invitation',
};
