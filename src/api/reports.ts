/**
 * Reports (issue 15; spec part 2 §7). Saved reports travel to the tablet in the `reports` collection,
 * which the screens read (offline too); a link's report is read from the server without a session.
 */
import type { z } from 'zod';
import { savedReportMessages as m } from '../../common/messages/reports';
import { sharedReportQuery, type sharedReportAnswer } from '../../common/schemas/saved-reports';
import { type ApiContext, check, online } from './context';

export type SharedReport = z.infer<typeof sharedReportAnswer>['report'];

/**
 * GET /reporting/report?token= (public): the one report a link shows, for someone without an account.
 * The server's message (an unknown or revoked link), or 'Failed to Fetch Saved Reports'.
 */
export async function openSharedReport(context: Pick<ApiContext, 'client'>, token: string): Promise<SharedReport> {
  const query = check(sharedReportQuery, { token });
  const answer = await online<z.infer<typeof sharedReportAnswer>>(context, { path: '/reporting/report', query, skipRefresh: true }, m.fetchSavedReportsFailed);
  return answer.report;
}
