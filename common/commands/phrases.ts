/**
 * The command parser's words and answers, per language (issue 18, "The command bar"): what each word of a
 * command does (parse.ts reads them), the built-in batch statuses as each language says them, number words,
 * and what the parser answers when it cannot read a command, always with an example it can read.
 *
 * Words are written in lower case without accents ("floracion", not "Floración"); the parser compares
 * commands the same way, so "FLORACIÓN", "floracion" and "Floración" read alike. A phrase may be several
 * words ("and then", "tot en met"); the parser also compares words with their spaces and hyphens taken
 * out, so "un-cull" reads as "uncull" and "t/m" as "tm".
 *
 * WARNING: every example must be a command its own language reads (parse.test.ts checks each one
 * against a vocabulary); change a word here and its example together.
 */
import type { BUILT_IN_BATCH_STATUSES } from '../batch-statuses';
import { thousands } from '../messages/numbers';
import { SEVERITY_MAX, SEVERITY_MIN } from '../messages/problems';
import type { CommandLanguage } from './actions';

export type BuiltInBatchStatus = (typeof BUILT_IN_BATCH_STATUSES)[number];

/**
 * What a word does in a command.
 * - Action words: `cull`, `uncull`, `harvest`, `fill` and `scanned` say the action themselves; `mark`,
 *   `move` and `report` only when nothing else does ("mark box 3 culled" culls).
 * - `box`, `grid`, `room`, `batch`, `form`, `problem`: the kind of thing named next ("grid Bench A").
 * - `severity` and `notes` start those parts of a problem report.
 * - `place`: a preposition before a grid or boxes ("in", "on", "for"); `status`: before a batch's new
 *   status ("to", "naar").
 * - `range` joins two box numbers into a run ("4 to 9"); `and` joins list items; `then` always ends an
 *   action ("and then"); `next` ends one only where another action starts ("cull box 3 then harvest B-001").
 * - `back`: takes a cull back when no batch is named ("zet vak 7 terug"), and means nothing beside a batch
 *   ("zet batch B-001 terug naar vegetatief").
 * - `filler`: said but meaning nothing here ("the", "please").
 */
export type CommandRole =
  | 'cull'
  | 'uncull'
  | 'harvest'
  | 'fill'
  | 'scanned'
  | 'mark'
  | 'move'
  | 'report'
  | 'box'
  | 'grid'
  | 'room'
  | 'batch'
  | 'form'
  | 'problem'
  | 'severity'
  | 'notes'
  | 'place'
  | 'status'
  | 'range'
  | 'and'
  | 'then'
  | 'next'
  | 'back'
  | 'filler';

/** The kinds of names a command holds, as its answers name them ("place": a room or a grid). */
export type CommandNameKind = 'room' | 'grid' | 'place' | 'batch' | 'form' | 'problem' | 'status';

/** Which example an answer gives: one per action the parser reads, and one of two actions joined. */
export type CommandExampleKind = 'cull' | 'uncull' | 'mark-scanned' | 'problem' | 'batch-status' | 'harvest' | 'fill-form' | 'several';

/** The names an example uses: the company's own where it has them, so the example is one it can run. */
export interface ExampleNames {
  room: string;
  grid: string;
  batch: string;
  form: string;
  problem: string;
}

export interface CommandMessages {
  empty: string;
  tooLong: (max: number) => string;
  unreadable: (said: string) => string;
  leftover: (said: string) => string;
  notFound: Record<CommandNameKind, (said: string) => string>;
  /** Appended to notFound when names are close to what was said. */
  didYouMean: (names: readonly string[]) => string;
  missing: Record<Exclude<CommandNameKind, 'place' | 'grid'>, string>;
  boxesMissing: string;
  boxNumber: string;
  tooManyBoxes: (max: number) => string;
  tooManyActions: (max: number) => string;
  severityMissing: string;
  severityOutOfRange: (said: string) => string;
  twoSeverities: string;
  twoStatuses: string;
  mixedActions: string;
  notesOnlyForProblems: string;
  notesTooLong: (max: number) => string;
}

export interface CommandPhrases {
  words: Record<CommandRole, readonly string[]>;
  /** Number words of 0 to 100, by their value (compounds too: "twenty one", "treinta y uno", "eenentwintig"). */
  numbers: ReadonlyMap<string, number>;
  /** How the language says each built-in batch status, besides the status's own (English) name. */
  statuses: Record<BuiltInBatchStatus, readonly string[]>;
  examples: Record<CommandExampleKind, (names: ExampleNames) => string>;
  messages: CommandMessages;
}

/** Names as a list closed by the language's "or" ("Bench A, Bench B or Bench C"). */
const orList = (or: string) => (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${or} ${names[names.length - 1]!}`;

/** Number words from tables of units (0–19 or so) and tens, with the language's way of joining them. */
function numberWords(units: readonly string[], tens: Readonly<Record<number, string>>, compound: (ten: string, unit: string) => readonly string[], extra: Readonly<Record<string, number>>) {
  const words = new Map<string, number>();
  units.forEach((word, value) => words.set(word, value));
  for (const [tenValue, ten] of Object.entries(tens)) {
    words.set(ten, Number(tenValue));
    for (let unit = 1; unit <= 9; unit += 1) for (const word of compound(ten, units[unit]!)) words.set(word, Number(tenValue) + unit);
  }
  for (const [word, value] of Object.entries(extra)) words.set(word, value);
  // Compared as the parser compares: without spaces or hyphens ("twenty one" as "twentyone").
  return new Map([...words].map(([word, value]) => [word.replace(/[\s-]/g, ''), value]));
}

const EN_UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const ES_UNITS = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciseis', 'diecisiete', 'dieciocho', 'diecinueve'];
const NL_UNITS = ['nul', 'een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen', 'tien', 'elf', 'twaalf', 'dertien', 'veertien', 'vijftien', 'zestien', 'zeventien', 'achttien', 'negentien'];

const en: CommandPhrases = {
  words: {
    cull: ['cull', 'culled', 'discard', 'discarded'],
    uncull: ['uncull', 'unculled', 'undo cull', 'restore', 'restored', 'bring back'],
    harvest: ['harvest'],
    fill: ['fill', 'fill in', 'fill out', 'complete'],
    scanned: ['scanned', 'as scanned'],
    mark: ['mark'],
    move: ['move', 'set', 'change', 'put', 'switch'],
    report: ['report', 'log', 'record', 'add'],
    box: ['box', 'boxes', 'grid box', 'grid boxes', 'gridbox', 'gridboxes', 'position', 'positions'],
    grid: ['grid'],
    room: ['room', 'grow room'],
    batch: ['batch', 'batches', 'lot'],
    form: ['form', 'forms'],
    problem: ['problem', 'pest', 'disease'],
    severity: ['severity', 'sev', 'level', 'severity level'],
    notes: ['notes', 'note', 'comment'],
    place: ['in', 'on', 'at', 'of', 'for', 'from'],
    status: ['to', 'into', 'status', 'stage', 'as'],
    range: ['to', 'through', 'thru', 'till', 'until'],
    and: ['and', '&', 'plus'],
    then: ['and then'],
    next: ['then'],
    back: ['back'],
    filler: ['the', 'a', 'an', 'please', 'number', 'nr', 'no', 'with', 'is', 'now', 'ok', 'okay'],
  },
  numbers: numberWords(
    EN_UNITS,
    { 20: 'twenty', 30: 'thirty', 40: 'forty', 50: 'fifty', 60: 'sixty', 70: 'seventy', 80: 'eighty', 90: 'ninety' },
    (ten, unit) => [`${ten} ${unit}`],
    { hundred: 100, 'one hundred': 100, 'a hundred': 100 },
  ),
  statuses: {
    Propagation: ['propagation', 'propagating', 'clones', 'cloning'],
    Vegetative: ['vegetative', 'veg', 'vegging', 'vegetation', 'growth'],
    Flowering: ['flowering', 'flower', 'bloom', 'blooming'],
    Drying: ['drying', 'dry'],
    Curing: ['curing', 'cure'],
    Harvested: ['harvested'],
    Destroyed: ['destroyed'],
  },
  examples: {
    cull: ({ grid }) => `cull box 12 in ${grid}`,
    uncull: ({ grid }) => `uncull box 12 in ${grid}`,
    'mark-scanned': ({ room }) => `mark ${room} scanned`,
    problem: ({ problem, grid }) => `${problem} severity 3 on boxes 4 to 9 in ${grid}`,
    'batch-status': ({ batch }) => `batch ${batch} to Flowering`,
    harvest: ({ batch }) => `harvest ${batch}`,
    'fill-form': ({ form }) => `fill ${form} for box 12`,
    several: ({ grid, batch }) => `cull box 3 in ${grid} and then harvest ${batch}`,
  },
  messages: {
    empty: 'Type or say a command.',
    tooLong: (max) => `A command may be at most ${thousands(max)} characters.`,
    unreadable: (said) => `“${said}” is not a command this tablet can read.`,
    leftover: (said) => `“${said}” could not be read in this command.`,
    notFound: {
      room: (said) => `There is no room named “${said}”.`,
      grid: (said) => `There is no grid named “${said}”.`,
      place: (said) => `There is no room or grid named “${said}”.`,
      batch: (said) => `There is no batch named “${said}”.`,
      form: (said) => `There is no form named “${said}”.`,
      problem: (said) => `There is no problem named “${said}”.`,
      status: (said) => `There is no batch status named “${said}”.`,
    },
    didYouMean: (names) => `Did you mean ${orList('or')(names)}?`,
    missing: {
      room: 'Say which room or grid.',
      batch: 'Say which batch.',
      form: 'Say which form to fill.',
      problem: 'Say which problem.',
      status: 'Say which status the batch moves to.',
    },
    boxesMissing: 'Say which boxes, by their numbers.',
    boxNumber: 'Box numbers are whole numbers from 1.',
    tooManyBoxes: (max) => `At most ${thousands(max)} boxes in one command.`,
    tooManyActions: (max) => `At most ${thousands(max)} actions in one command.`,
    severityMissing: `Say the severity, from ${SEVERITY_MIN} to ${SEVERITY_MAX}.`,
    severityOutOfRange: (said) => `Severity must be from ${SEVERITY_MIN} to ${SEVERITY_MAX}, not ${said}.`,
    twoSeverities: 'Say one severity per problem report.',
    twoStatuses: 'Say one status per batch.',
    mixedActions: 'Say one action at a time, or join actions with “and then”.',
    notesOnlyForProblems: 'Notes go with a problem report.',
    notesTooLong: (max) => `Notes may be at most ${thousands(max)} characters.`,
  },
};

const es: CommandPhrases = {
  words: {
    cull: ['descartar', 'descarta', 'descarte', 'descartada', 'descartado', 'descartadas', 'descartados', 'eliminar', 'elimina', 'sacrificar', 'sacrifica'],
    uncull: ['restaurar', 'restaura', 'recuperar', 'recupera', 'deshacer descarte', 'anular descarte'],
    harvest: ['cosechar', 'cosecha', 'coseche', 'recolectar', 'recolecta'],
    fill: ['rellenar', 'rellena', 'llenar', 'llena', 'completar', 'completa'],
    scanned: ['escaneado', 'escaneada', 'escaneados', 'escaneadas', 'como escaneado', 'como escaneada'],
    mark: ['marcar', 'marca', 'marque'],
    move: ['pasar', 'pasa', 'mover', 'mueve', 'cambiar', 'cambia', 'poner', 'pon'],
    report: ['reportar', 'reporta', 'registrar', 'registra', 'anotar', 'anota', 'hay'],
    box: ['caja', 'cajas', 'casilla', 'casillas', 'posicion', 'posiciones'],
    grid: ['cuadricula', 'rejilla', 'grid'],
    room: ['sala', 'cuarto', 'habitacion', 'sala de cultivo'],
    batch: ['lote', 'lotes'],
    form: ['formulario', 'formularios'],
    problem: ['problema', 'plaga', 'enfermedad'],
    severity: ['severidad', 'gravedad', 'nivel'],
    notes: ['notas', 'nota', 'comentario', 'observaciones', 'observacion'],
    place: ['en', 'de', 'del', 'para', 'sobre', 'desde'],
    status: ['a', 'al', 'hacia', 'estado', 'fase'],
    range: ['a', 'al', 'hasta'],
    and: ['y', 'e', '&', 'mas'],
    then: ['y luego', 'y despues', 'y entonces'],
    next: ['luego', 'despues', 'entonces'],
    back: [],
    filler: ['el', 'la', 'los', 'las', 'un', 'una', 'por favor', 'numero', 'num', 'como', 'con', 'es', 'ahora', 'vale'],
  },
  numbers: numberWords(
    ES_UNITS,
    { 20: 'veinte', 30: 'treinta', 40: 'cuarenta', 50: 'cincuenta', 60: 'sesenta', 70: 'setenta', 80: 'ochenta', 90: 'noventa' },
    // "veintiuno" is one word; from thirty on, "treinta y uno".
    (ten, unit) => (ten === 'veinte' ? [`veinti${unit}`] : [`${ten} y ${unit}`]),
    { una: 1, veintiun: 21, veintiuna: 21, cien: 100, ciento: 100 },
  ),
  statuses: {
    Propagation: ['propagacion', 'esquejes', 'esqueje', 'enraizamiento', 'germinacion'],
    Vegetative: ['vegetativo', 'vegetativa', 'vegetacion', 'crecimiento'],
    Flowering: ['floracion', 'flora', 'florecimiento'],
    Drying: ['secado', 'secando'],
    Curing: ['curado', 'curando'],
    Harvested: ['cosechado', 'cosechada'],
    Destroyed: ['destruido', 'destruida'],
  },
  examples: {
    cull: ({ grid }) => `descartar caja 12 en ${grid}`,
    uncull: ({ grid }) => `restaurar caja 12 en ${grid}`,
    'mark-scanned': ({ room }) => `marcar ${room} como escaneada`,
    problem: ({ problem, grid }) => `${problem} severidad 3 en cajas 4 a 9 en ${grid}`,
    'batch-status': ({ batch }) => `lote ${batch} a floración`,
    harvest: ({ batch }) => `cosechar ${batch}`,
    'fill-form': ({ form }) => `rellenar ${form} para la caja 12`,
    several: ({ grid, batch }) => `descartar caja 3 en ${grid} y luego cosechar ${batch}`,
  },
  messages: {
    empty: 'Escriba o diga un comando.',
    tooLong: (max) => `Un comando puede tener como máximo ${thousands(max)} caracteres.`,
    unreadable: (said) => `«${said}» no es un comando que esta tableta sepa leer.`,
    leftover: (said) => `No se pudo leer «${said}» en este comando.`,
    notFound: {
      room: (said) => `No hay ninguna sala llamada «${said}».`,
      grid: (said) => `No hay ninguna cuadrícula llamada «${said}».`,
      place: (said) => `No hay ninguna sala ni cuadrícula llamada «${said}».`,
      batch: (said) => `No hay ningún lote llamado «${said}».`,
      form: (said) => `No hay ningún formulario llamado «${said}».`,
      problem: (said) => `No hay ningún problema llamado «${said}».`,
      status: (said) => `No hay ningún estado de lote llamado «${said}».`,
    },
    didYouMean: (names) => `¿Quiso decir ${orList('o')(names)}?`,
    missing: {
      room: 'Diga qué sala o cuadrícula.',
      batch: 'Diga qué lote.',
      form: 'Diga qué formulario rellenar.',
      problem: 'Diga qué problema.',
      status: 'Diga a qué estado pasa el lote.',
    },
    boxesMissing: 'Diga qué cajas, por su número.',
    boxNumber: 'Los números de caja son números enteros desde 1.',
    tooManyBoxes: (max) => `Como máximo ${thousands(max)} cajas en un comando.`,
    tooManyActions: (max) => `Como máximo ${thousands(max)} acciones en un comando.`,
    severityMissing: `Diga la severidad, de ${SEVERITY_MIN} a ${SEVERITY_MAX}.`,
    severityOutOfRange: (said) => `La severidad debe ser de ${SEVERITY_MIN} a ${SEVERITY_MAX}, no ${said}.`,
    twoSeverities: 'Diga una sola severidad por problema.',
    twoStatuses: 'Diga un solo estado por lote.',
    mixedActions: 'Diga una acción cada vez, o una las acciones con «y luego».',
    notesOnlyForProblems: 'Las notas van con un problema.',
    notesTooLong: (max) => `Las notas pueden tener como máximo ${thousands(max)} caracteres.`,
  },
};

const nl: CommandPhrases = {
  words: {
    cull: ['ruim', 'ruimen', 'ruim op', 'opruimen', 'geruimd', 'verwijder', 'verwijderen', 'cull', 'cullen'],
    uncull: ['herstel', 'herstellen', 'zet terug', 'terugzetten', 'uncull'],
    harvest: ['oogst', 'oogsten'],
    fill: ['vul', 'vul in', 'invullen', 'vullen'],
    scanned: ['gescand', 'gescanned', 'als gescand'],
    mark: ['markeer', 'markeren', 'merk'],
    move: ['zet', 'zetten', 'verplaats', 'verplaatsen', 'verander', 'veranderen', 'wijzig', 'wijzigen'],
    report: ['meld', 'melden', 'registreer', 'registreren', 'noteer', 'noteren'],
    box: ['box', 'boxen', 'boxes', 'vak', 'vakken', 'bak', 'bakken', 'plek', 'plekken', 'positie', 'posities'],
    grid: ['grid', 'raster', 'rooster'],
    room: ['ruimte', 'kamer', 'kweekruimte', 'cel'],
    batch: ['batch', 'batches', 'partij', 'partijen'],
    form: ['formulier', 'formulieren'],
    problem: ['probleem', 'plaag', 'ziekte'],
    severity: ['ernst', 'zwaarte', 'niveau', 'ernstniveau', 'ernstgraad'],
    notes: ['notitie', 'notities', 'opmerking', 'opmerkingen'],
    place: ['in', 'op', 'van', 'voor', 'bij', 'aan'],
    status: ['naar', 'op', 'in', 'status', 'fase'],
    range: ['tot', 't/m', 'tot en met'],
    and: ['en', '&', 'plus'],
    then: ['en dan', 'en daarna', 'en vervolgens'],
    next: ['dan', 'daarna', 'vervolgens'],
    back: ['terug'],
    filler: ['de', 'het', 'een', 'alsjeblieft', 'graag', 'nummer', 'nr', 'als', 'met', 'is', 'nu', 'oke'],
  },
  numbers: numberWords(
    NL_UNITS,
    { 20: 'twintig', 30: 'dertig', 40: 'veertig', 50: 'vijftig', 60: 'zestig', 70: 'zeventig', 80: 'tachtig', 90: 'negentig' },
    // "eenentwintig"; "tweeëntwintig" is compared without its diaeresis, as "tweeentwintig".
    (ten, unit) => [`${unit}en${ten}`],
    { honderd: 100, eenhonderd: 100 },
  ),
  statuses: {
    Propagation: ['opkweek', 'vermeerdering', 'stek', 'stekken', 'kieming'],
    Vegetative: ['vegetatief', 'vegetatieve fase', 'groei', 'groeifase'],
    Flowering: ['bloei', 'bloeifase', 'bloeiend'],
    Drying: ['drogen', 'droog', 'droging'],
    Curing: ['uitharden', 'curen', 'fermenteren'],
    Harvested: ['geoogst'],
    Destroyed: ['vernietigd'],
  },
  examples: {
    cull: ({ grid }) => `ruim vak 12 in ${grid}`,
    uncull: ({ grid }) => `herstel vak 12 in ${grid}`,
    'mark-scanned': ({ room }) => `markeer ${room} als gescand`,
    problem: ({ problem, grid }) => `${problem} ernst 3 op vakken 4 t/m 9 in ${grid}`,
    'batch-status': ({ batch }) => `batch ${batch} naar bloei`,
    harvest: ({ batch }) => `oogst ${batch}`,
    'fill-form': ({ form }) => `vul ${form} in voor vak 12`,
    several: ({ grid, batch }) => `ruim vak 3 in ${grid} en dan oogst ${batch}`,
  },
  messages: {
    empty: 'Typ of zeg een opdracht.',
    tooLong: (max) => `Een opdracht mag hooguit ${thousands(max)} tekens lang zijn.`,
    unreadable: (said) => `‘${said}’ is geen opdracht die deze tablet kan lezen.`,
    leftover: (said) => `‘${said}’ kon in deze opdracht niet gelezen worden.`,
    notFound: {
      room: (said) => `Er is geen ruimte met de naam ‘${said}’.`,
      grid: (said) => `Er is geen grid met de naam ‘${said}’.`,
      place: (said) => `Er is geen ruimte of grid met de naam ‘${said}’.`,
      batch: (said) => `Er is geen batch met de naam ‘${said}’.`,
      form: (said) => `Er is geen formulier met de naam ‘${said}’.`,
      problem: (said) => `Er is geen probleem met de naam ‘${said}’.`,
      status: (said) => `Er is geen batchstatus met de naam ‘${said}’.`,
    },
    didYouMean: (names) => `Bedoelt u ${orList('of')(names)}?`,
    missing: {
      room: 'Zeg welke ruimte of welk grid.',
      batch: 'Zeg welke batch.',
      form: 'Zeg welk formulier u wilt invullen.',
      problem: 'Zeg welk probleem.',
      status: 'Zeg naar welke status de batch gaat.',
    },
    boxesMissing: 'Zeg welke vakken, met hun nummers.',
    boxNumber: 'Vaknummers zijn hele getallen vanaf 1.',
    tooManyBoxes: (max) => `Hooguit ${thousands(max)} vakken in één opdracht.`,
    tooManyActions: (max) => `Hooguit ${thousands(max)} acties in één opdracht.`,
    severityMissing: `Zeg de ernst, van ${SEVERITY_MIN} tot en met ${SEVERITY_MAX}.`,
    severityOutOfRange: (said) => `De ernst moet van ${SEVERITY_MIN} tot en met ${SEVERITY_MAX} zijn, niet ${said}.`,
    twoSeverities: 'Zeg één ernst per probleem.',
    twoStatuses: 'Zeg één status per batch.',
    mixedActions: 'Zeg één actie tegelijk, of verbind acties met ‘en dan’.',
    notesOnlyForProblems: 'Notities horen bij een probleem.',
    notesTooLong: (max) => `Notities mogen hooguit ${thousands(max)} tekens lang zijn.`,
  },
};

/** The parser's words and answers, by the command's language. */
export const COMMAND_PHRASES: Readonly<Record<CommandLanguage, CommandPhrases>> = { en, es, nl };

/** The names examples use when the company has none of a kind yet. */
export const EXAMPLE_NAME_FALLBACKS: ExampleNames = { room: 'Flower 1', grid: 'Bench A', batch: 'B-001', form: 'Weekly scouting', problem: 'Spider mites' };
