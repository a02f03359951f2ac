/**
 * The consultants' server reads (grants live on the server only: src/api/consultants.ts says why), each
 * through `useServerRead`: offline they hold nothing and the screens say the part needs the connection.
 * The domain functions load on their first call (deferred): these are cold paths.
 */
import { useEffect, useState } from 'react';
import { deferred } from '../../app/deferred';
import { type ServerRead, useServerRead } from '../../app/hooks';
import { client } from '../../app/services';
import type { ConsultantAccess, ConsultantCompany } from '../../api/consultants';
import { formatDate } from '../../i18n/format';
import { messageOf } from '../../i18n/messages';

const consultantsApi = () => import('../../api/consultants');
export const listConsultants = deferred(consultantsApi, 'listConsultants');
export const inviteConsultant = deferred(consultantsApi, 'inviteConsultant');
export const revokeConsultant = deferred(consultantsApi, 'revokeConsultant');
export const myCompanies = deferred(consultantsApi, 'myCompanies');
export const switchCompany = deferred(consultantsApi, 'switchCompany');
export const consultantInvitation = deferred(consultantsApi, 'consultantInvitation');
export const acceptConsultantInvitation = deferred(consultantsApi, 'acceptConsultantInvitation');

/** The company's grants (Admins). */
export function useConsultants(companyId: number): ServerRead<ConsultantAccess[]> {
  return useServerRead((context) => listConsultants(context, { companyId }), `consultants-${companyId}`);
}

/** A consultant's companies; read again whenever `round` changes (the sync met a refusal: the access may have ended). */
export function useMyCompanies(enabled: boolean, round: string): ServerRead<ConsultantCompany[]> {
  return useServerRead(enabled ? (context) => myCompanies(context) : null, `my-companies-${round}`);
}

/** A moment as the tablet's reader reads a date (at render: the reader's language), or '' for none. */
export function dateText(value: string | null | undefined): string {
  return formatDate(value, { year: 'numeric', month: 'short', day: 'numeric' });
}

export interface InvitationRead {
  invitation: { company_name: string; email: string; expires_at: string; has_account: boolean } | null;
  loading: boolean;
  error: string | null;
}

/**
 * The invitation a link names, read with no session (the public page opens no local store, so not
 * through `useServerRead`, whose context does). Without a token there is nothing to read.
 */
export function useInvitation(token: string | undefined): InvitationRead {
  const [state, setState] = useState<InvitationRead>({ invitation: null, loading: token !== undefined, error: null });
  useEffect(() => {
    if (token === undefined) return undefined;
    let current = true;
    setState({ invitation: null, loading: true, error: null });
    consultantInvitation({ client }, { token }).then(
      (invitation) => current && setState({ invitation, loading: false, error: null }),
      (error: unknown) => current && setState({ invitation: null, loading: false, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [token]);
  return state;
}
