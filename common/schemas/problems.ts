/**
 * Requests and answers of plant problems (spec part 2 §3, §5, §7; issue 14): the catalogue calls, problems
 * recorded on grid boxes and plants with their readers and actions, and problem colours. Mutations read
 * their fields from a JSON body, a form body (create_gridbox_problem also multipart, with a photo) or the
 * query (the server merges the query under the body before these run).
 */
import { z } from 'zod';
import {
  ABBREVIATION_MAX,
  PROBLEM_ACTION_NAMES,
  PROBLEM_STATUSES,
  PROBLEM_TYPE_MAX,
  SEVERITY_MAX,
  SEVERITY_MIN,
  problemMessages as m,
} from '../messages/problems';
import { answer, recordRef, timestamp } from './answers';
import { formBody, optionalClientId, optionalId, optionalText, requiredId, requiredNumber, requiredText } from './fields';

/** Blank text and null count as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** An action value (PROBLEM_ACTIONS), any case; missing: the call's own message, unknown: the list of actions. */
const action = (missing: string) =>
  z.preprocess(blankToUndefined, z.string({ error: missing }).trim().toLowerCase().pipe(z.enum(PROBLEM_ACTION_NAMES, { error: m.unknownAction })));

const problemType = (missing: string) => requiredText(missing, PROBLEM_TYPE_MAX);

// ——— The catalogue ———

export const companyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const loadPlantProblemsQuery = z.object({ company_id: requiredId(m.companyIdRequired), slug: optionalText(200) });

/** The symptom group is the filter's first step; the symptom and colour narrow it further. */
export const filterPlantProblemsQuery = z.object({
  symptom_group_id: requiredId(m.symptomGroupRequired),
  symptom_id: optionalId(m.symptomIdInvalid),
  color_symptom_id: optionalId(m.colorSymptomIdInvalid),
});

/** `problem_id`: the catalogue problem's id or slug (global content, not a company's record). */
export const addCustomSolutionBody = formBody({
  company_id: requiredId(m.companyIdRequired),
  problem_id: z.preprocess((value) => (typeof value === 'number' ? String(value) : value), requiredText(m.catalogueProblemRequired, 200)),
  custom_solution: requiredText(m.customSolutionRequired, 4000),
  client_id: optionalClientId(),
});

// ——— Problems on plants ———

/** The uploaded photo stays a Buffer (or is absent); saveImage checks it. */
const upload = z.unknown().optional();

export const createGridboxProblemBody = formBody({
  GridBoxID: requiredId(m.createFieldsMissing),
  /** A plant of the box (one of its sub-gridboxes); absent: the problem is on the box. */
  sub_gridbox_id: optionalId(),
  problem_type: problemType(m.createFieldsMissing),
  /** The catalogue entry the type names; set from the type when it is a catalogue problem's name. */
  problem_slug: optionalText(200),
  severity: requiredNumber(m.createFieldsMissing).refine((severity) => severity >= SEVERITY_MIN && severity <= SEVERITY_MAX, { error: m.severityRange }),
  notes: optionalText(4000),
  user_id: requiredId(m.createFieldsMissing),
  client_id: optionalClientId(),
  image: upload,
});

export const gridboxProblemsQuery = z.object({ gridbox_id: requiredId(m.gridboxIdRequired) });
export const gridProblemsQuery = z.object({ grid_id: requiredId(m.gridIdRequired) });
export const roomProblemsQuery = z.object({ room_id: requiredId(m.roomIdRequired) });

/** problemType with roomID or gridID (both: the grid, which is narrower). */
export const problemsByTypeQuery = z
  .object({ problemType: problemType(m.problemTypeRequired), roomID: optionalId(m.roomOrGridRequired), gridID: optionalId(m.roomOrGridRequired) })
  .refine((query) => query.roomID !== undefined || query.gridID !== undefined, { error: m.roomOrGridRequired });

export const manageProblemBody = formBody({
  problemID: requiredId(m.manageFieldsMissing),
  action: action(m.manageFieldsMissing),
  userID: requiredId(m.manageFieldsMissing),
});

export const manageProblemsByTypeRoomBody = formBody({
  roomID: requiredId(m.byTypeRoomFieldsMissing),
  problemType: problemType(m.byTypeRoomFieldsMissing),
  action: action(m.byTypeRoomFieldsMissing),
  userID: requiredId(m.byTypeRoomFieldsMissing),
});

export const manageProblemsByTypeGridBody = formBody({
  gridID: requiredId(m.byTypeGridFieldsMissing),
  problemType: problemType(m.byTypeGridFieldsMissing),
  action: action(m.byTypeGridFieldsMissing),
  userID: requiredId(m.byTypeGridFieldsMissing),
});

export const updateGridProblemsBody = formBody({
  gridID: requiredId(m.gridActionFieldsMissing),
  action: action(m.gridActionFieldsMissing),
  userID: requiredId(m.gridActionFieldsMissing),
});

export const updateRoomProblemsBody = formBody({
  roomID: requiredId(m.roomActionFieldsMissing),
  action: action(m.roomActionFieldsMissing),
  userID: requiredId(m.roomActionFieldsMissing),
});

// ——— Problem colours ———

/** A CSS colour the map can draw: hex (#rgb, #rrggbb, #rrggbbaa) or a colour name. */
const color = z.preprocess(blankToUndefined, z.string().trim().regex(/^(#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,30})$/i, { error: m.colorInvalid }).optional());
const abbreviation = z.preprocess(blankToUndefined, z.string().trim().max(ABBREVIATION_MAX, { error: m.abbreviationTooLong }).optional());

/** A field a mapping keeps beside its colour and abbreviation (spec: "problem plus extras"). */
const extraValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);
const EXTRAS_MAX = 20;

const MAPPING_FIELDS: ReadonlySet<string> = new Set(['company_id', 'problem', 'Color', 'Abbreviation', 'client_id']);

/** The fields of a map_problem_color request beyond the mapping's own: kept in its `extras`. */
export function extrasOf(fields: Record<string, unknown>): Record<string, z.output<typeof extraValue>> {
  return Object.fromEntries(Object.entries(fields).filter(([key, value]) => !MAPPING_FIELDS.has(key) && value !== undefined)) as Record<string, z.output<typeof extraValue>>;
}

export const deleteProblemColorBody = formBody({ company_id: requiredId(m.companyIdRequired), problem: problemType(m.problemRequired) });

/**
 * map_problem_color: `problem` with Color and Abbreviation (also spelled `Problem`, `color`, `abbreviation`);
 * any other field is kept in the mapping's extras (at most EXTRAS_MAX).
 */
export const mapProblemColorBody = z.preprocess(
  (value) => {
    const fields = { ...((value ?? {}) as Record<string, unknown>) };
    for (const [alias, field] of [
      ['color', 'Color'],
      ['abbreviation', 'Abbreviation'],
      ['Problem', 'problem'],
    ] as const) {
      if (fields[field] === undefined && fields[alias] !== undefined) fields[field] = fields[alias];
      delete fields[alias];
    }
    return fields;
  },
  z
    .object({
      company_id: requiredId(m.companyIdRequired),
      problem: problemType(m.problemRequired),
      Color: color,
      Abbreviation: abbreviation,
      client_id: optionalClientId(),
    })
    .catchall(extraValue)
    .refine((fields) => Object.keys(extrasOf(fields)).length <= EXTRAS_MAX, { error: m.tooManyExtras(EXTRAS_MAX) }),
);

// ——— Answers ———

const symptomGroupSlug = z.enum(['leaves', 'stems', 'roots', 'flowers', 'whole-plant']);

/** A catalogue problem (common/plant-problems/types.ts `CatalogueProblem`). */
export const catalogueProblemRecord = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  scientific_name: z.string().nullable(),
  kind: z.enum(['pest', 'disease', 'disorder']),
  category: z.string(),
  description: z.string(),
  symptom_groups: z.array(symptomGroupSlug),
  symptoms: z.array(z.string()),
  color_symptoms: z.array(z.string()),
  look_alikes: z.array(z.object({ slug: z.string(), how_to_tell: z.string() })),
  solutions: z.array(z.object({ kind: z.enum(['cultural', 'biological', 'chemical']), text: z.string(), organisms: z.array(z.string()).optional() })),
  abbreviation: z.string(),
});

/**
 * A company's own solution to a catalogue problem, as load_plant_problems answers it and the company
 * document carries it (`custom_solutions`). `id` is the server's integer id; until the server has the
 * solution, the tablet's optimistic copy holds its client id there too. `client_id` is its name for life.
 */
export const customSolutionRecord = z.object({
  id: recordRef,
  client_id: z.string(),
  problem_slug: z.string(),
  solution: z.string(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
});

export type CustomSolutionRecord = z.infer<typeof customSolutionRecord>;

const symptomRecord = z.object({ id: z.number().int(), slug: z.string(), name: z.string(), group: symptomGroupSlug });
const colorSymptomRecord = z.object({ id: z.number().int(), slug: z.string(), name: z.string(), swatch: z.string() });

export const plantProblemsAnswer = answer({ problems: z.array(catalogueProblemRecord) });
/** Without a slug, the catalogue (`problems`); with one, that problem with the company's own solutions (`problem`). */
export const loadPlantProblemsAnswer = answer({
  problems: z.array(catalogueProblemRecord).optional(),
  problem: catalogueProblemRecord.extend({ custom_solutions: z.array(customSolutionRecord) }).optional(),
});
export const symptomGroupsAnswer = answer({
  symptom_groups: z.array(z.object({ id: z.number().int(), slug: symptomGroupSlug, name: z.string(), symptoms: z.array(symptomRecord) })),
});
export const colorSymptomsAnswer = answer({ color_symptoms: z.array(colorSymptomRecord) });
export const addCustomSolutionAnswer = answer({ custom_solution: customSolutionRecord, client_id: z.string() });

/** A problem seen on a grid box or on one of its plants, as answers and the synced `plant_problems` collection show it. */
export const plantProblemRecord = z.object({
  problem_id: recordRef,
  company_id: z.number().int(),
  room_id: recordRef,
  grid_id: recordRef,
  grid_box_id: recordRef,
  sub_gridbox_id: recordRef.nullable(),
  problem_type: z.string(),
  problem_slug: z.string().nullable(),
  severity: z.number(),
  notes: z.string().nullable(),
  /** The photo's address (GET /api/files/{id}). */
  image: z.string().nullable(),
  source: z.enum(['manual', 'form', 'scan']),
  form_response_id: recordRef.nullable(),
  user_id: z.number().int().nullable(),
  /** When the grower saw it (the act's time, also offline). */
  observed_at: timestamp,
  status: z.enum(PROBLEM_STATUSES),
  status_at: timestamp.nullable(),
  status_by: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type PlantProblemRecord = z.infer<typeof plantProblemRecord>;

export const createGridboxProblemAnswer = answer({ problem_id: recordRef, client_id: z.string(), problem: plantProblemRecord });

/**
 * An open problem as the grid and room readers list it: what the map shows and acts on. The whole
 * record is the box's reader's and the collection's (a room's thousands of open problems stay light).
 */
export const openProblemEntry = plantProblemRecord.pick({
  problem_id: true,
  sub_gridbox_id: true,
  problem_type: true,
  problem_slug: true,
  severity: true,
  status: true,
  observed_at: true,
  user_id: true,
});

export type OpenProblemEntry = z.infer<typeof openProblemEntry>;

/** A box with its open problems (the spec's `Boxes`). */
const boxWithProblems = z.object({ GridBoxID: recordRef, X: z.number().int(), Y: z.number().int(), CustomName: z.string().nullable(), problems: z.array(openProblemEntry) });

/** Open problems counted by type (types compared without case; the first spelling seen names the group). */
const problemTypeCount = z.object({ problem_type: z.string(), count: z.number().int() });

export const gridboxProblemsAnswer = answer({ GridBoxID: recordRef, problems: z.array(plantProblemRecord) });
/** The grid's boxes that have open problems, row by row. */
export const gridProblemsAnswer = answer({ GridID: recordRef, Boxes: z.array(boxWithProblems), total: z.number().int() });
/** The room's grids that have open problems, each with its `Boxes`, and the counts per type over the room. */
export const roomProblemsAnswer = answer({
  RoomID: recordRef,
  grids: z.array(z.object({ GridID: recordRef, Name: z.string(), Boxes: z.array(boxWithProblems) })),
  counts: z.array(problemTypeCount),
  total: z.number().int(),
});
export const problemsByTypeAnswer = answer({
  problemType: z.string(),
  RoomID: recordRef.nullable(),
  GridID: recordRef.nullable(),
  problems: z.array(plantProblemRecord),
  total: z.number().int(),
});

/** A circle on the pest-pressure map: one per problem type on a box. */
const problemCircle = z.object({ problem_type: z.string(), count: z.number().int(), color: z.string(), abbreviation: z.string() });
export const gridCirclesAnswer = answer({
  GridID: recordRef,
  Boxes: z.array(z.object({ GridBoxID: recordRef, X: z.number().int(), Y: z.number().int(), circles: z.array(problemCircle) })),
});

/** Every manage and update call: what it did and the problems it changed (none when all were already so). */
export const manageProblemsAnswer = answer({
  action: z.enum(PROBLEM_ACTION_NAMES),
  /** The status the action sets (`status` is the envelope's). */
  problem_status: z.enum(PROBLEM_STATUSES),
  changed_count: z.number().int(),
  problems: z.array(plantProblemRecord),
});

/** A company's colour and abbreviation for a problem (spec problemColorMapping), with the extra fields it was sent with. */
export const problemColorMappingRecord = z.object({
  id: recordRef,
  CompanyID: z.number().int(),
  Problem: z.string(),
  Color: z.string().nullable(),
  Abbreviation: z.string().nullable(),
  extras: z.record(z.string(), extraValue),
});

export type ProblemColorMappingRecord = z.infer<typeof problemColorMappingRecord>;

export const problemColorMappingsAnswer = answer({ mappings: z.array(problemColorMappingRecord) });
export const mapProblemColorAnswer = answer({ mapping: problemColorMappingRecord });
export const deleteProblemColorAnswer = answer({ Problem: z.string() });
