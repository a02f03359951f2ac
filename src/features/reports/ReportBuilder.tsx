/**
 * A new report (issue 15): the report type, the chart, the period, the rooms (all when none is
 * chosen, where the type allows it) and the type's own choices: the problems for a room's rows, one
 * problem, the field for a form's answers, a batch's forms, a spray product. The trend is read from the
 * server (it is computed from every tablet's observations, so building one needs the connection: the
 * screen says so offline) and drawn with its table; saving keeps it, with its data and its choices, on
 * every tablet, and works offline once drawn.
 *
 * The lists the choices offer (rooms, batches, forms, problem names, products) come from the local
 * store, as every screen's do; the problem catalogue's names come from its own chunk (useCatalogue), so
 * the 125 kB catalogue stays out of this route's code.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_CATEGORIES } from '../../../common/messages/forms';
import { CHART_TYPES, type ChartType, DEFAULT_CHART_TYPE } from '../../../common/messages/reports';
import { OPEN_PROBLEM_STATUSES } from '../../../common/problem-statuses';
import { TREATMENT_WINDOW_DAYS } from '../../../common/schemas/reports';
import { type ApiContext, ValidationError } from '../../api/context';
import { saveReport } from '../../api/reports';
import { useAction, useApiContext, useLocalQuery, useSignedInUser } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { messageOf } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { byCurrentThenNewest, type LocalBatch } from '../batches/model';
import { categoryName } from '../forms/texts';
import { useCatalogue } from '../plant-problems/useCatalogue';
import { ChoiceOptions, Field, FormError } from '../shell/forms';
import { reportDataOf } from '../../../common/charts/chart-model';
import { ReportChart } from './ReportChart';
import { rememberWeather } from './report-weather';
import { choicesOf, type ReadReport, readReportAnswer, type ReportQuery, ROOM_NEEDED, savedFiltersOf } from './read-report';
import { chartTypeLabels, reportsTexts, reportTypeName } from './texts';
import { REPORT_TYPE_NAMES, REPORT_TYPES, type ReportType, type RoomChoice } from '../../../common/charts/trend-models';

type Room = LocalDocument & { Name?: string };
type Template = LocalDocument & { TemplateName?: string; FormCategory?: string; fields?: Array<{ FieldID: string | number; FieldName: string; FieldType: string }> };
type ProblemDoc = LocalDocument & { problem_type?: string };
type Product = LocalDocument & { ProductName?: string };

/** Fields whose answers a report sums or counts by week. */
const REPORTED_FIELD_TYPES = new Set(['Number', 'Radio', 'Select', 'Checkbox']);

/** How the period is chosen: the last weeks, two dates, or (specific trends) the batch's own dates. */
type PeriodMode = 'weeks' | 'range' | 'batch';

const ROOMS_LEGEND = { any: 'builder.roomsAny', at_least_one: 'builder.roomsAtLeastOne' } as const satisfies Record<Exclude<RoomChoice, 'none' | 'at_most_one'>, string>;

/** A report read, with what it was asked and the chart it is drawn as. */
interface Built {
  read: ReadReport;
  query: ReportQuery;
  chart: ChartType;
}

export function ReportBuilder() {
  const { t } = useTranslation(reportsTexts);
  const user = useSignedInUser();
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const rooms = useLocalQuery<Room>('rooms', {}, 'all', [{ Name: 'asc' }]).documents;
  const templates = useLocalQuery<Template>('form_templates', {}, 'all').documents;
  const fields = templates.flatMap((template) => (template.fields ?? []).filter((field) => REPORTED_FIELD_TYPES.has(field.FieldType)).map((field) => ({ id: String(field.FieldID), label: `${template.TemplateName ?? t('builder.unnamedForm')}: ${field.FieldName}` })));

  const [type, setType] = useState<ReportType>('problem_trends');
  const [chart, setChart] = useState<ChartType>(DEFAULT_CHART_TYPE);
  const [periodMode, setPeriodMode] = useState<PeriodMode>('weeks');
  const [weeks, setWeeks] = useState('8');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [roomIds, setRoomIds] = useState<string[]>([]);
  const [problems, setProblems] = useState('');
  const [problem, setProblem] = useState('');
  const [fieldId, setFieldId] = useState('');
  const [specific, setSpecific] = useState<SpecificChoice>({ batchId: '', category: '', formId: '', roomId: '', imagesOnly: false });
  const [product, setProduct] = useState('');
  const [built, setBuilt] = useState<Built | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const [weatherOn, setWeatherOn] = useState(false);
  // The preview's outdoor weather goes with the report it saves (report-weather.ts).
  const saving = useAction(
    async (context: ApiContext, input: Parameters<typeof saveReport>[1]) => {
      const reportId = await saveReport(context, input);
      if (weatherOn) rememberWeather(reportId, true);
    },
    t('builder.saved'),
    { inlineErrors: true },
  );

  const roomChoice = REPORT_TYPES[type].rooms;
  // The batch's dates are specific trends' own choice: another type falls back to the last weeks.
  const mode: PeriodMode = periodMode === 'batch' && type !== 'specific_trends' ? 'weeks' : periodMode;

  async function show(event: FormEvent) {
    event.preventDefault();
    if (!context || !user) return;
    const chosenRooms = roomChoice === 'none' ? [] : roomChoice === 'at_most_one' ? (specific.roomId ? [specific.roomId] : []) : roomIds;
    const choices = choicesOf(type, {
      plant_problems: problems.split(',').map((each) => each.trim()).filter(Boolean),
      FieldID: fieldId || null,
      problem: problem.trim() || null,
      batch_id: specific.batchId || null,
      form_category: specific.category || null,
      specificForm: specific.formId || null,
      include_images_only: specific.imagesOnly,
      batch_dates: mode === 'batch',
      product_name: product.trim() || null,
    });
    // Over the batch's dates the period below is not sent (read-report.ts).
    const query: ReportQuery = { type, period: mode === 'range' ? { start, end } : { weeks: Number(weeks) }, roomIds: chosenRooms, choices };
    setBusy(true);
    setError(null);
    try {
      setBuilt({ read: await readReportAnswer(context, user.companyId, query), query, chart });
    } catch (caught) {
      setBuilt(null);
      // The rule read-report.ts checks before any call, said in this screen's words.
      setError(caught instanceof ValidationError && caught.message === ROOM_NEEDED ? t('builder.roomNeeded') : messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!built || !user) return;
    const { read, query } = built;
    // The builder is on the list's screen: the saved report appears in the list below at once.
    await saving.run({ companyId: user.companyId, name, chartType: built.chart, reportType: query.type, data: reportDataOf(read.model), filters: savedFiltersOf(query, read), roomIds: query.roomIds });
  }

  function chooseType(next: ReportType) {
    setType(next);
    // Treatments, not weeks, along the axis: a line between two treatments means nothing; bars compare them (the chart can still be changed).
    if (next === 'treatment_effectiveness_report') setChart('bar');
  }

  const toggleRoom = (id: string) => setRoomIds((chosen) => (chosen.includes(id) ? chosen.filter((each) => each !== id) : [...chosen, id]));

  return (
    <section className="card report-builder" aria-labelledby="new-report">
      <h2 id="new-report">{t('builder.heading')}</h2>
      {!online && (
        <p className="banner offline" role="status">
          {t('builder.offline')}
        </p>
      )}
      <form className="form" onSubmit={(event) => void show(event)}>
        <Field label={t('builder.report')}>
          <select value={type} onChange={(event) => chooseType(event.target.value as ReportType)}>
            {REPORT_TYPE_NAMES.map((name) => (
              <option key={name} value={name}>
                {reportTypeName(name)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('builder.chart')}>
          <select value={chart} onChange={(event) => setChart(event.target.value as ChartType)}>
            <ChoiceOptions choices={CHART_TYPES} labels={chartTypeLabels()} />
          </select>
        </Field>
        <fieldset className="report-period">
          <legend>{t('builder.period')}</legend>
          <label className="inline-choice">
            <input type="radio" name="period" checked={mode === 'weeks'} onChange={() => setPeriodMode('weeks')} /> {t('builder.lastWeeks')}
          </label>
          <label className="inline-choice">
            <input type="radio" name="period" checked={mode === 'range'} onChange={() => setPeriodMode('range')} /> {t('builder.range')}
          </label>
          {type === 'specific_trends' && (
            <label className="inline-choice">
              <input type="radio" name="period" checked={mode === 'batch'} onChange={() => setPeriodMode('batch')} /> {t('builder.batchDates')}
            </label>
          )}
          {mode === 'weeks' && (
            <Field label={t('builder.weeks')}>
              <input type="number" min={1} max={260} inputMode="numeric" value={weeks} onChange={(event) => setWeeks(event.target.value)} />
            </Field>
          )}
          {mode === 'range' && (
            <>
              <Field label={t('builder.from')}>
                <input type="date" value={start} onChange={(event) => setStart(event.target.value)} />
              </Field>
              <Field label={t('builder.to')}>
                <input type="date" value={end} onChange={(event) => setEnd(event.target.value)} />
              </Field>
            </>
          )}
        </fieldset>
        {(roomChoice === 'any' || roomChoice === 'at_least_one') && (
          <fieldset className="report-rooms">
            <legend>{t(ROOMS_LEGEND[roomChoice])}</legend>
            {type === 'trends_cumulative_report_graph' && <p className="muted">{t('builder.runningTotal')}</p>}
            {rooms.map((room) => (
              <label key={room.id} className="inline-choice">
                <input type="checkbox" checked={roomIds.includes(room.id)} onChange={() => toggleRoom(room.id)} /> {room.Name ?? room.id}
              </label>
            ))}
          </fieldset>
        )}
        {type === 'gutter_trends' && (
          <Field label={t('builder.problems')}>
            <input value={problems} onChange={(event) => setProblems(event.target.value)} placeholder={t('builder.problemsExample')} />
          </Field>
        )}
        {type === 'single_problem_trend' && user && <ProblemChoice companyId={user.companyId} value={problem} onChange={setProblem} />}
        {type === 'treatment_effectiveness_report' && <ProductChoice value={product} onChange={setProduct} />}
        {type === 'field_responses_report' && (
          <Field label={t('builder.field')}>
            <select value={fieldId} onChange={(event) => setFieldId(event.target.value)}>
              <option value="">{t('builder.chooseField')}</option>
              {fields.map((field) => (
                <option key={field.id} value={field.id}>
                  {field.label}
                </option>
              ))}
            </select>
          </Field>
        )}
        {type === 'specific_trends' && user && <SpecificChoices companyId={user.companyId} value={specific} onChange={setSpecific} rooms={rooms} templates={templates} />}
        <FormError error={error} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || !online}>
            {busy ? t('builder.reading') : t('builder.show')}
          </button>
        </div>
      </form>
      {built && (
        <>
          <ReportChart model={built.read.model} kind={built.chart} title={name.trim() || reportTypeName(built.query.type)} weather={{ period: built.read.period, on: weatherOn, setOn: setWeatherOn }} />
          <form className="form" onSubmit={(event) => void save(event)}>
            <Field label={t('reportName')}>
              <input value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
            </Field>
            <FormError error={saving.error} />
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={saving.busy}>
                {t('builder.save')}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}

/**
 * One problem, typed: suggested from the company's problems open on this tablet and the catalogue's
 * names (a company's own type is any text; the server matches any case, and a catalogue entry by its
 * name or slug). The company's open problems are read only while this choice shows.
 */
function ProblemChoice(props: { companyId: number; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(reportsTexts);
  const open = useLocalQuery<ProblemDoc>('plant_problems', { company_id: props.companyId, status: { $in: [...OPEN_PROBLEM_STATUSES] } }, `open-problems-${props.companyId}`).documents;
  const { catalogue } = useCatalogue();
  const names = useMemo(() => {
    // One suggestion per name, any case; a company's type that names a catalogue entry is shown by the catalogue's name.
    const byKey = new Map<string, string>();
    for (const type of open.map((each) => each.problem_type?.trim() ?? '').filter(Boolean)) {
      const shown = catalogue?.named(type)?.name ?? type;
      byKey.set(shown.toLowerCase(), shown);
    }
    for (const entry of catalogue?.problems ?? []) if (!byKey.has(entry.name.toLowerCase())) byKey.set(entry.name.toLowerCase(), entry.name);
    return [...byKey.values()];
  }, [open, catalogue]);
  return (
    <>
      <Field label={t('builder.problem')}>
        <input value={props.value} onChange={(event) => props.onChange(event.target.value)} list="report-problem-names" autoComplete="off" placeholder={t('builder.problemExample')} />
      </Field>
      <datalist id="report-problem-names">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}

/** A spray product's name, typed (blank: every spray), suggested from the company's products on this tablet. */
function ProductChoice(props: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(reportsTexts);
  const products = useLocalQuery<Product>('operations', { kind: 'spray_product' }, 'report-spray-products').documents;
  const names = [...new Set(products.map((each) => each.ProductName?.trim() ?? '').filter(Boolean))].sort((a, b) => a.localeCompare(b));
  return (
    <>
      <p className="muted">{t('builder.treatmentHelp', { days: TREATMENT_WINDOW_DAYS })}</p>
      <Field label={t('builder.product')}>
        <input value={props.value} onChange={(event) => props.onChange(event.target.value)} list="report-products" autoComplete="off" />
      </Field>
      <datalist id="report-products">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}

/** Specific trends' choices: the batch (required), and to narrow it a form category, a form, one room and responses with photos only. */
interface SpecificChoice {
  batchId: string;
  category: string;
  formId: string;
  roomId: string;
  imagesOnly: boolean;
}

function SpecificChoices(props: { companyId: number; value: SpecificChoice; onChange: (value: SpecificChoice) => void; rooms: Room[]; templates: Template[] }) {
  const { t } = useTranslation(reportsTexts);
  const { value, onChange } = props;
  const batchList = useLocalQuery<LocalBatch>('batches', { CompanyID: props.companyId }, `batches-${props.companyId}`).documents;
  // Batches still growing first, as the batches' list shows them.
  const batches = useMemo(() => [...batchList].sort(byCurrentThenNewest), [batchList]);
  const forms = props.templates.filter((template) => !value.category || template.FormCategory === value.category);
  return (
    <>
      <Field label={t('builder.batch')}>
        <select value={value.batchId} onChange={(event) => onChange({ ...value, batchId: event.target.value })}>
          <option value="">{t('builder.chooseBatch')}</option>
          {batches.map((batch) => (
            <option key={batch.id} value={batch.id}>
              {[batch.BatchNumber, batch.StrainName].filter(Boolean).join(' · ')}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('builder.formCategory')}>
        {/* A form of another category would answer nothing: changing the category lets go of the form. */}
        <select value={value.category} onChange={(event) => onChange({ ...value, category: event.target.value, formId: '' })}>
          <option value="">{t('builder.everyCategory')}</option>
          {FORM_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {categoryName(category)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('builder.form')}>
        <select value={value.formId} onChange={(event) => onChange({ ...value, formId: event.target.value })}>
          <option value="">{t('builder.everyForm')}</option>
          {forms.map((template) => (
            <option key={template.id} value={template.id}>
              {template.TemplateName ?? template.id}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('builder.room')}>
        <select value={value.roomId} onChange={(event) => onChange({ ...value, roomId: event.target.value })}>
          <option value="">{t('builder.everyRoom')}</option>
          {props.rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.Name ?? room.id}
            </option>
          ))}
        </select>
      </Field>
      <label className="inline-choice">
        <input type="checkbox" checked={value.imagesOnly} onChange={(event) => onChange({ ...value, imagesOnly: event.target.checked })} /> {t('builder.imagesOnly')}
      </label>
    </>
  );
}
