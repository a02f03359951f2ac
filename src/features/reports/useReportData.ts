/**
 * What a saved report shows, and from when. Online, its trend is read again with the choices it was
 * saved with (read-report.ts `queryOfSaved`), moved back `weeksBack` weeks on the dashboard's week
 * selector, and, with the company's auto refresh on, again every AUTO_REFRESH_MS while the page is
 * visible. Otherwise (offline, a failed read, a report the builder does not make) it shows the data it
 * last showed on this tablet: the newer of its saved data and the last read kept here (kept-data.ts),
 * with the time that data was computed.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type ChartModel, reportDataOf } from '../../../common/charts/chart-model';
import { useApiContext, useLocalDocument, useSignedInUser } from '../../app/hooks';
import { messageOf } from '../../i18n/messages';
import type { CompanyDoc } from '../rooms/model';
import { useSyncStatus } from '../../sync/sync-store';
import { type KeptData, keepData, keptData } from './kept-data';
import { type LocalReport, savedModel } from './model';
import { periodWeeksBack, queryOfSaved, readReport } from './read-report';

/** How often a dashboard refreshes itself with the company's auto refresh on (ours: the spec names no period). */
export const AUTO_REFRESH_MS = 5 * 60_000;

export interface ReportData {
  model: ChartModel;
  /** When the data shown was computed (ISO). */
  computedAt: string;
  /** `read`: just read from the server; `kept`: the data this tablet last had (saved or kept). */
  source: 'read' | 'kept';
  reading: boolean;
  /** The last read's failure, if it failed (the kept data shows meanwhile), in the reader's language. */
  error: string | null;
  /** Whether this report can be read again at all (a report the builder makes, online). */
  readable: boolean;
  refresh: () => void;
}

/** Whether the company has auto refresh on (`set_company_auto_refresh`; default off). */
export function useCompanyAutoRefresh(): boolean {
  const user = useSignedInUser();
  const company = useLocalDocument<CompanyDoc>('company', user ? String(user.companyId) : undefined).document;
  return company?.settings?.auto_refresh === 1;
}

function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const changed = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
  return visible;
}

/** The newer of the report's saved data and what this tablet kept of its last read. */
function keptOf(report: LocalReport, kept: KeptData | null): { model: ChartModel; computedAt: string } {
  if (kept && kept.computedAt > report.computed_at) return { model: savedModel({ report_data: kept.data, filters: report.filters }), computedAt: kept.computedAt };
  return { model: savedModel(report), computedAt: report.computed_at };
}

export function useReportData(report: LocalReport, options: { weeksBack?: number; autoRefresh?: boolean } = {}): ReportData {
  const weeksBack = options.weeksBack ?? 0;
  const context = useApiContext();
  const user = useSignedInUser();
  const online = useSyncStatus((status) => status.online);
  const visible = usePageVisible();
  const query = queryOfSaved(report);
  const queryKey = query ? JSON.stringify(query) : null;
  const [read, setRead] = useState<{ key: string; model: ChartModel; computedAt: string } | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  // The data kept on this tablet is parsed from local storage when the report or what was kept changes,
  // not on every render (a dashboard re-renders with each sync status).
  const [keptHere, setKeptHere] = useState<(KeptData & { reportId: string }) | null>(null);
  const kept = useMemo(() => keptOf(report, keptHere?.reportId === report.id ? keptHere : keptData(report.id)), [report, keptHere]);
  const readable = online && query !== null && context !== null && user !== null;
  const key = `${queryKey ?? ''}|${weeksBack}`;

  useEffect(() => {
    if (!readable || !query || !context || !user) return;
    let current = true;
    setReading(true);
    const computedAt = new Date().toISOString();
    readReport(context, user.companyId, { ...query, period: periodWeeksBack(query.period, weeksBack) })
      .then((model) => {
        if (!current) return;
        setRead({ key, model, computedAt });
        setError(null);
        // Only the report's own period is what it "last showed": a week looked back at is not kept.
        if (weeksBack === 0) {
          const data = { data: reportDataOf(model), computedAt };
          keepData(report.id, data);
          setKeptHere({ ...data, reportId: report.id });
        }
      })
      .catch((caught: unknown) => {
        if (current) setError(messageOf(caught));
      })
      .finally(() => {
        if (current) setReading(false);
      });
    return () => {
      current = false;
    };
    // The query is compared by its text (queryKey); a new round reads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readable, key, report.id, round]);

  useEffect(() => {
    if (!options.autoRefresh || !visible || !readable) return;
    const timer = setInterval(() => setRound((count) => count + 1), AUTO_REFRESH_MS);
    return () => clearInterval(timer);
  }, [options.autoRefresh, visible, readable]);

  const refresh = useCallback(() => setRound((count) => count + 1), []);
  if (read && read.key === key && readable) return { model: read.model, computedAt: read.computedAt, source: 'read', reading, error, readable, refresh };
  return { ...kept, source: 'kept', reading, error, readable, refresh };
}
