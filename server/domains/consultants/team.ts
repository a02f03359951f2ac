/**
 * What an outside consultant sees of a company's team (routes.ts "What a consultant may do"): names and
 * roles, not email addresses, which are the team's and not an outsider's. Applied where the team is
 * answered: load_users, and the company document of the sync pull and read-back.
 */
import type { FastifyRequest } from 'fastify';
import type { SyncDocument } from '../../../common/schemas/sync';
import type { UserRecord } from '../../../common/schemas/users';
import { caller } from '../../http/guards';

const readByConsultant = (request: FastifyRequest) => caller(request).user_role === 'Consultant';

/** The users as the caller may see them: without their addresses for a consultant. */
export function teamFor<User extends Pick<UserRecord, 'email'>>(request: FastifyRequest, users: User[]): User[] {
  return readByConsultant(request) ? users.map((user) => ({ ...user, email: '' })) : users;
}

/** Company documents (the `company` collection) as the caller may see them: their users' addresses left out for a consultant. */
export function companyDocumentsFor(request: FastifyRequest, collection: string, documents: SyncDocument[]): SyncDocument[] {
  if (collection !== 'company' || !readByConsultant(request)) return documents;
  return documents.map((document) => (Array.isArray(document.users) ? { ...document, users: teamFor(request, document.users as Array<Pick<UserRecord, 'email'>>) } : document));
}
