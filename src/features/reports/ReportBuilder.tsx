/**
 * A new report (issue 15): the report type, the chart, the period, the rooms (all when none is
 * chosen), the problems for a room's rows and the field for a form's answers; the trend is read from
 * the server (it is computed from every tablet's observations, so building one needs the connection:
 * the screen says so offline) and drawn with its table; saving keeps it, with its data, on every
 * tablet, and works offline once drawn.
 */
import { type FormEvent, useState } from 'react';
import { CHART_TYPES, type ChartType, DEFAULT_CHART_TYPE } from '../../../common/messages/reports';
import { saveReport, savedFilters, type ReportPeriodChoice } from '../../api/reports';
import { useAction, useApiContext, useLocalQuery, useSignedInUser } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { useSyncStatus } from '../../sync/sync-store';
import { Field, FormError } from '../shell/forms';
import { type ChartModel, reportDataOf } from '../../../common/charts/chart-model';
import { CHART_TYPE_LABELS, ReportChart } from './ReportChart';
import { readReport, type ReportChoices } from './read-report';
import { REPORT_TYPE_NAMES, REPORT_TYPES, type ReportType } from '../../../common/charts/trend-models';

type Room = LocalDocument & { Name?: string };
type Template = LocalDocument & { TemplateName?: string; fields?: Array<{ FieldID: string | number; FieldName: string; FieldType: string }> };

/** Fields whose answers a report sums or counts by week. */
const REPORTED_FIELD_TYPES = new Set(['Number', 'Radio', 'Select', 'Checkbox']);

interface Built {
  model: ChartModel;
  type: ReportType;
  chart: ChartType;
  period: ReportPeriodChoice;
  roomIds: string[];
  choices: ReportChoices;
}

export function ReportBuilder() {
  const user = useSignedInUser();
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const rooms = useLocalQuery<Room>('rooms', {}, 'all', [{ Name: 'asc' }]).documents;
  const templates = useLocalQuery<Template>('form_templates', {}, 'all').documents;
  const fields = templates.flatMap((template) => (template.fields ?? []).filter((field) => REPORTED_FIELD_TYPES.has(field.FieldType)).map((field) => ({ id: String(field.FieldID), label: `${template.TemplateName ?? 'Form'}: ${field.FieldName}` })));

  const [type, setType] = useState<ReportType>('problem_trends');
  const [chart, setChart] = useState<ChartType>(DEFAULT_CHART_TYPE);
  const [byWeeks, setByWeeks] = useState(true);
  const [weeks, setWeeks] = useState('8');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [roomIds, setRoomIds] = useState<string[]>([]);
  const [problems, setProblems] = useState('');
  const [fieldId, setFieldId] = useState('');
  const [built, setBuilt] = useState<Built | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const saving = useAction(saveReport, 'Report saved.', { inlineErrors: true });

  async function show(event: FormEvent) {
    event.preventDefault();
    if (!context || !user) return;
    const period: ReportPeriodChoice = byWeeks ? { weeks: Number(weeks) } : { start, end };
    const named = problems.split(',').map((problem) => problem.trim()).filter(Boolean);
    setBusy(true);
    setError(null);
    try {
      const choices: ReportChoices = { plant_problems: named, FieldID: fieldId || null };
      const model = await readReport(context, user.companyId, { type, period, roomIds, choices });
      setBuilt({ model, type, chart, period, roomIds, choices });
    } catch (caught) {
      setBuilt(null);
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!built || !user) return;
    const filters = savedFilters(built.period, { ...built.choices, category_label: built.model.categoryLabel, unit: built.model.unit });
    // The builder is on the list's screen: the saved report appears in the list below at once.
    await saving.run({ companyId: user.companyId, name, chartType: built.chart, reportType: built.type, data: reportDataOf(built.model), filters, roomIds: built.roomIds });
  }

  const toggleRoom = (id: string) => setRoomIds((chosen) => (chosen.includes(id) ? chosen.filter((each) => each !== id) : [...chosen, id]));

  return (
    <section className="card report-builder" aria-labelledby="new-report">
      <h2 id="new-report">New report</h2>
      {!online && (
        <p className="banner offline" role="status">
          Building a report needs the connection: trends are computed from every tablet’s observations. Saved reports below open offline.
        </p>
      )}
      <form className="form" onSubmit={(event) => void show(event)}>
        <Field label="Report">
          <select value={type} onChange={(event) => setType(event.target.value as ReportType)}>
            {REPORT_TYPE_NAMES.map((name) => (
              <option key={name} value={name}>
                {REPORT_TYPES[name].label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Chart">
          <select value={chart} onChange={(event) => setChart(event.target.value as ChartType)}>
            {CHART_TYPES.map((name) => (
              <option key={name} value={name}>
                {CHART_TYPE_LABELS[name]}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="report-period">
          <legend>Period</legend>
          <label className="inline-choice">
            <input type="radio" name="period" checked={byWeeks} onChange={() => setByWeeks(true)} /> The last weeks
          </label>
          <label className="inline-choice">
            <input type="radio" name="period" checked={!byWeeks} onChange={() => setByWeeks(false)} /> From a date to a date
          </label>
          {byWeeks ? (
            <Field label="Number of weeks">
              <input type="number" min={1} max={260} inputMode="numeric" value={weeks} onChange={(event) => setWeeks(event.target.value)} />
            </Field>
          ) : (
            <>
              <Field label="From">
                <input type="date" value={start} onChange={(event) => setStart(event.target.value)} />
              </Field>
              <Field label="To">
                <input type="date" value={end} onChange={(event) => setEnd(event.target.value)} />
              </Field>
            </>
          )}
        </fieldset>
        {type !== 'field_responses_report' && (
          <fieldset className="report-rooms">
            <legend>Rooms (none chosen: every room)</legend>
            {rooms.map((room) => (
              <label key={room.id} className="inline-choice">
                <input type="checkbox" checked={roomIds.includes(room.id)} onChange={() => toggleRoom(room.id)} /> {room.Name ?? room.id}
              </label>
            ))}
          </fieldset>
        )}
        {type === 'gutter_trends' && (
          <Field label="Problems, separated by commas">
            <input value={problems} onChange={(event) => setProblems(event.target.value)} placeholder="Two-spotted spider mite, Powdery mildew" />
          </Field>
        )}
        {type === 'field_responses_report' && (
          <Field label="Form field">
            <select value={fieldId} onChange={(event) => setFieldId(event.target.value)}>
              <option value="">Choose a field</option>
              {fields.map((field) => (
                <option key={field.id} value={field.id}>
                  {field.label}
                </option>
              ))}
            </select>
          </Field>
        )}
        <FormError error={error} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || !online}>
            {busy ? 'Reading the trend…' : 'Show report'}
          </button>
        </div>
      </form>
      {built && (
        <>
          <ReportChart model={built.model} kind={built.chart} title={name.trim() || REPORT_TYPES[built.type].label} />
          <form className="form" onSubmit={(event) => void save(event)}>
            <Field label="Report name">
              <input value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
            </Field>
            <FormError error={saving.error} />
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={saving.busy}>
                Save report
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
