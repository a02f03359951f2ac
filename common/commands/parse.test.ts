/**
 * The command bar's parser on a table of commands in its three languages, typed and as speech recognition
 * writes them (lower case, no punctuation, numbers as words), each with the exact actions it reads, and
 * commands it must refuse, each with its exact answer and example.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BATCH_STATUSES } from '../batch-statuses';
import { CATALOGUE } from '../plant-problems';
import { commandActionsSchema } from '../schemas/commands';
import { COMMAND_LANGUAGES, type CommandAction, type CommandActionKind, type CommandLanguage, type CommandVocabulary } from './actions';
import { parseCommand } from './parse';
import { COMMAND_PHRASES, type CommandExampleKind } from './phrases';

const vocabulary: CommandVocabulary = {
  rooms: ['Flower 1', 'Veg Room'],
  grids: ['Bench A', 'Bench B'],
  batches: ['B-001', 'B-002'],
  forms: ['Weekly scouting', 'Sticky trap count'],
  problems: ['Spider mites', 'Powdery mildew', 'Thrips', 'Botrytis'],
  statuses: [...BUILT_IN_BATCH_STATUSES, 'Mother stock'],
};

const cull = (boxes: number[], grid: string | null = null): CommandAction => ({ kind: 'cull', culled: true, boxes, grid });
const uncull = (boxes: number[], grid: string | null = null): CommandAction => ({ kind: 'cull', culled: false, boxes, grid });
const scanned = (target: 'room' | 'grid', name: string | null): CommandAction => ({ kind: 'mark-scanned', target, name });
const problem = (name: string, severity: number, boxes: number[], grid: string | null = null, notes: string | null = null): CommandAction => ({
  kind: 'problem',
  problem: name,
  severity,
  notes,
  boxes,
  grid,
});
const status = (batch: string, to: string): CommandAction => ({ kind: 'batch-status', batch, status: to });
const harvest = (batch: string): CommandAction => ({ kind: 'harvest', batch });
const fill = (form: string, boxes: number[], grid: string | null = null): CommandAction => ({ kind: 'fill-form', form, boxes, grid });

type Read = [CommandLanguage, string, CommandAction[]];

const read: Read[] = [
  // English.
  ['en', 'cull box 12 in Bench A', [cull([12], 'Bench A')]],
  ['en', 'cull boxes 4, 5 and 9 in bench b', [cull([4, 5, 9], 'Bench B')]],
  ['en', 'CULL BOX TWENTY-ONE IN BENCH A', [cull([21], 'Bench A')]],
  ['en', 'cull twelve', [cull([12])]],
  ['en', 'cull box 9 and box 3 and box 9', [cull([3, 9])]],
  ['en', 'uncull box 3', [uncull([3])]],
  ['en', 'restore boxes 4-6 on Bench B', [uncull([4, 5, 6], 'Bench B')]],
  ['en', 'put box seven back', [uncull([7])]],
  ['en', 'mark Flower 1 scanned', [scanned('room', 'Flower 1')]],
  ['en', 'mark grid bench a as scanned', [scanned('grid', 'Bench A')]],
  ['en', 'mark flower one and veg room scanned', [scanned('room', 'Flower 1'), scanned('room', 'Veg Room')]],
  ['en', 'mark scanned', [scanned('room', null)]],
  ['en', 'spider mites severity 3 on boxes 4 to 9 in Bench A', [problem('Spider mites', 3, [4, 5, 6, 7, 8, 9], 'Bench A')]],
  ['en', 'report thrips severity five on box two', [problem('Thrips', 5, [2])]],
  ['en', 'spyder mites severity 2 on box 12', [problem('Spider mites', 2, [12])]],
  ['en', 'botrytis on box 3 severity 4 notes: grey mould on buds, cull soon', [problem('Botrytis', 4, [3], null, 'grey mould on buds, cull soon')]],
  ['en', 'spider mites and thrips severity 3 on box 4', [problem('Spider mites', 3, [4]), problem('Thrips', 3, [4])]],
  ['en', 'Spider Mites, severity 3, on boxes 4-9 in Bench A.', [problem('Spider mites', 3, [4, 5, 6, 7, 8, 9], 'Bench A')]],
  ['en', 'batch B-001 to Flowering', [status('B-001', 'Flowering')]],
  ['en', 'move batch b 0 0 2 to veg', [status('B-002', 'Vegetative')]],
  ['en', 'set batch b-001 to mother stock', [status('B-001', 'Mother stock')]],
  ['en', 'batch b-001 to flowring', [status('B-001', 'Flowering')]],
  ['en', 'harvest B-001', [harvest('B-001')]],
  ['en', 'harvest b001 and b 2', [harvest('B-001'), harvest('B-002')]],
  ['en', 'fill Weekly scouting for box 12', [fill('Weekly scouting', [12])]],
  ['en', 'fill in sticky trap count for boxes 1 through 3 in bench b', [fill('Sticky trap count', [1, 2, 3], 'Bench B')]],
  ['en', 'cull box 3 and harvest B-001', [cull([3]), harvest('B-001')]],
  ['en', 'batch b-002 to drying and then harvest b-001', [status('B-002', 'Drying'), harvest('B-001')]],
  ['en', 'cull box 3, mark Flower 1 scanned; harvest B-002', [cull([3]), scanned('room', 'Flower 1'), harvest('B-002')]],
  ['en', 'cull box 3 in bench a and box 5 in bench b', [cull([3], 'Bench A'), cull([5], 'Bench B')]],

  // Spanish.
  ['es', 'descartar caja 12 en Bench A', [cull([12], 'Bench A')]],
  ['es', 'Descartar cajas del 4 al 9 en bench a', [cull([4, 5, 6, 7, 8, 9], 'Bench A')]],
  ['es', 'descartar la caja doce de bench b', [cull([12], 'Bench B')]],
  ['es', 'descartar cajas 1, 2 y 3', [cull([1, 2, 3])]],
  ['es', 'cajas treinta y uno y treinta y dos descartar', [cull([31, 32])]],
  ['es', 'restaurar caja 3', [uncull([3])]],
  ['es', 'recuperar cajas 5 a 7 en bench b', [uncull([5, 6, 7], 'Bench B')]],
  ['es', 'marcar Flower 1 como escaneada', [scanned('room', 'Flower 1')]],
  ['es', 'marcar cuadrícula bench b escaneada', [scanned('grid', 'Bench B')]],
  ['es', 'marcar sala escaneada', [scanned('room', null)]],
  ['es', 'spider mites severidad 3 en cajas 4 a 9 en Bench A', [problem('Spider mites', 3, [4, 5, 6, 7, 8, 9], 'Bench A')]],
  [
    'es',
    'spider mites severidad tres en las cajas cuatro a nueve en bench a notas: telarañas en las hojas',
    [problem('Spider mites', 3, [4, 5, 6, 7, 8, 9], 'Bench A', 'telarañas en las hojas')],
  ],
  ['es', 'hay trips severidad 2 en caja 5', [problem('Thrips', 2, [5])]],
  ['es', 'POWDERY MILDEW SEVERIDAD 1 EN CAJA 7', [problem('Powdery mildew', 1, [7])]],
  ['es', 'botritis severidad dos en la caja diecisiete', [problem('Botrytis', 2, [17])]],
  ['es', 'lote B-001 a floración', [status('B-001', 'Flowering')]],
  ['es', 'pasar lote b-002 a SECADO', [status('B-002', 'Drying')]],
  ['es', 'lote b-001 a floracion', [status('B-001', 'Flowering')]],
  ['es', 'cambiar lote b-002 a mother stock', [status('B-002', 'Mother stock')]],
  ['es', 'cosechar B-001', [harvest('B-001')]],
  ['es', 'cosechar lote b-001 y b-002', [harvest('B-001'), harvest('B-002')]],
  ['es', 'rellenar Weekly scouting para la caja 12', [fill('Weekly scouting', [12])]],
  ['es', 'rellenar sticky trap count para las cajas 1 a 3 en bench b', [fill('Sticky trap count', [1, 2, 3], 'Bench B')]],
  ['es', 'descartar caja 3 y cosechar b-001', [cull([3]), harvest('B-001')]],
  ['es', 'lote b-002 a curado y luego cosechar b-001', [status('B-002', 'Curing'), harvest('B-001')]],
  ['es', 'harvest B-001', [harvest('B-001')]],

  // Dutch.
  ['nl', 'ruim vak 12 in Bench A', [cull([12], 'Bench A')]],
  ['nl', 'ruim vakken 4 tot en met 9 op bench b', [cull([4, 5, 6, 7, 8, 9], 'Bench B')]],
  ['nl', 'ruim vak 4 t/m 6', [cull([4, 5, 6])]],
  ['nl', 'vak 3 en 5 ruimen', [cull([3, 5])]],
  ['nl', 'vak tweeëntwintig ruimen', [cull([22])]],
  ['nl', 'ruim vakken 1, 2 en 3 in bench a en vak 7 in bench b', [cull([1, 2, 3], 'Bench A'), cull([7], 'Bench B')]],
  ['nl', 'herstel vak drie', [uncull([3])]],
  ['nl', 'zet vak 7 terug', [uncull([7])]],
  ['nl', 'markeer Flower 1 als gescand', [scanned('room', 'Flower 1')]],
  ['nl', 'markeer grid bench a gescand', [scanned('grid', 'Bench A')]],
  ['nl', 'Veg Room gescand', [scanned('room', 'Veg Room')]],
  ['nl', 'thrips ernst 2 op vak 5', [problem('Thrips', 2, [5])]],
  ['nl', 'spider mites zwaarte vier op vakken 1, 2 en 3 in bench a opmerking: veel webben', [problem('Spider mites', 4, [1, 2, 3], 'Bench A', 'veel webben')]],
  ['nl', 'meld botrytis ernst 5 op vak twintig', [problem('Botrytis', 5, [20])]],
  ['nl', 'batch B-001 naar bloei', [status('B-001', 'Flowering')]],
  ['nl', 'zet partij b-002 op drogen', [status('B-002', 'Drying')]],
  ['nl', 'zet batch b-001 terug naar vegetatief', [status('B-001', 'Vegetative')]],
  ['nl', 'batch b-002 naar MOTHER STOCK', [status('B-002', 'Mother stock')]],
  ['nl', 'oogst B-001', [harvest('B-001')]],
  ['nl', 'oogst b-001 en b-002', [harvest('B-001'), harvest('B-002')]],
  ['nl', 'vul Weekly scouting in voor vak 12', [fill('Weekly scouting', [12])]],
  ['nl', 'vul sticky trap count in voor vakken 3 tot 6 in bench b', [fill('Sticky trap count', [3, 4, 5, 6], 'Bench B')]],
  ['nl', 'ruim vak 3 en oogst b-001', [cull([3]), harvest('B-001')]],
  ['nl', 'batch b-002 naar drogen en dan oogst b-001', [status('B-002', 'Drying'), harvest('B-001')]],
  ['nl', 'mark Flower 1 scanned', [scanned('room', 'Flower 1')]],
];

type Refused = [CommandLanguage, string, string, string];

const refused: Refused[] = [
  // English.
  ['en', '', 'Type or say a command.', 'cull box 12 in Bench A'],
  ['en', 'hello world', '“hello world” is not a command this tablet can read.', 'cull box 12 in Bench A'],
  ['en', 'cull box 12 in bench c', 'There is no grid named “bench c”. Did you mean Bench A or Bench B?', 'cull box 12 in Bench A'],
  ['en', 'harvest b-009', 'There is no batch named “b-009”. Did you mean B-001 or B-002?', 'harvest B-001'],
  ['en', 'aphids severity 3 on box 4', 'There is no problem named “aphids”.', 'Spider mites severity 3 on boxes 4 to 9 in Bench A'],
  ['en', 'thrips severity 7 on box 4', 'Severity must be from 1 to 5, not 7.', 'Spider mites severity 3 on boxes 4 to 9 in Bench A'],
  ['en', 'thrips on box 4', 'Say the severity, from 1 to 5.', 'Spider mites severity 3 on boxes 4 to 9 in Bench A'],
  ['en', 'cull boxes 1 to 600', 'At most 500 boxes in one command.', 'cull box 12 in Bench A'],
  ['en', 'batch b-001 to purple', 'There is no batch status named “purple”.', 'batch B-001 to Flowering'],
  ['en', 'cull box 3 severity 2', 'Say one action at a time, or join actions with “and then”.', 'cull box 3 in Bench A and then harvest B-001'],
  ['en', 'cull box 3 notes: dead', 'Notes go with a problem report.', 'Spider mites severity 3 on boxes 4 to 9 in Bench A'],
  ['en', 'fill weekly scouting', 'Say which boxes, by their numbers.', 'fill Weekly scouting for box 12'],
  ['en', 'mark flower 9 scanned', 'There is no room or grid named “flower 9”. Did you mean Flower 1?', 'mark Flower 1 scanned'],
  ['en', 'cull box 3 to', 'Say which boxes, by their numbers.', 'cull box 12 in Bench A'],
  // Spanish.
  ['es', '   ', 'Escriba o diga un comando.', 'descartar caja 12 en Bench A'],
  ['es', 'buenos días', '«buenos días» no es un comando que esta tableta sepa leer.', 'descartar caja 12 en Bench A'],
  ['es', 'cosechar b-010', 'No hay ningún lote llamado «b-010». ¿Quiso decir B-001 o B-002?', 'cosechar B-001'],
  ['es', 'thrips severidad 0 en caja 2', 'La severidad debe ser de 1 a 5, no 0.', 'Spider mites severidad 3 en cajas 4 a 9 en Bench A'],
  ['es', 'descartar caja 3 en mesa 9', 'No hay ninguna cuadrícula llamada «mesa 9».', 'descartar caja 12 en Bench A'],
  ['es', 'rellenar informe diario para la caja 2', 'No hay ningún formulario llamado «informe diario».', 'rellenar Weekly scouting para la caja 12'],
  ['es', 'cosechar', 'Diga qué lote.', 'cosechar B-001'],
  // Dutch.
  ['nl', 'goedemorgen', '‘goedemorgen’ is geen opdracht die deze tablet kan lezen.', 'ruim vak 12 in Bench A'],
  ['nl', 'oogst b-003', 'Er is geen batch met de naam ‘b-003’. Bedoelt u B-001 of B-002?', 'oogst B-001'],
  ['nl', 'thrips ernst 6 op vak 2', 'De ernst moet van 1 tot en met 5 zijn, niet 6.', 'Spider mites ernst 3 op vakken 4 t/m 9 in Bench A'],
  ['nl', 'ruim vak 3 in bench z', 'Er is geen grid met de naam ‘bench z’. Bedoelt u Bench A of Bench B?', 'ruim vak 12 in Bench A'],
  ['nl', 'ruim vak 0', 'Vaknummers zijn hele getallen vanaf 1.', 'ruim vak 12 in Bench A'],
  ['nl', 'markeer kas 9 als gescand', 'Er is geen ruimte of grid met de naam ‘kas 9’.', 'markeer Flower 1 als gescand'],
  ['nl', 'spint ernst 3 op vak 4', 'Er is geen probleem met de naam ‘spint’.', 'Spider mites ernst 3 op vakken 4 t/m 9 in Bench A'],
  ['nl', 'batch b-001', 'Zeg naar welke status de batch gaat.', 'batch B-001 naar bloei'],
];

describe('parseCommand', () => {
  it.each(read)('(%s) reads “%s”', (language, command, actions) => {
    expect(parseCommand(command, language, vocabulary)).toEqual({ ok: true, actions });
  });

  it.each(refused)('(%s) refuses “%s” with its answer and an example', (language, command, message, example) => {
    expect(parseCommand(command, language, vocabulary)).toEqual({ ok: false, message, example });
  });

  it('has every action in every language on its table, and enough of each', () => {
    for (const language of COMMAND_LANGUAGES) {
      const rows = read.filter(([said]) => said === language);
      const kinds = new Set<CommandActionKind>(rows.flatMap(([, , actions]) => actions.map((action) => action.kind)));
      expect([...kinds].sort()).toEqual(['batch-status', 'cull', 'fill-form', 'harvest', 'mark-scanned', 'problem']);
      expect(rows.some(([, , actions]) => actions.some((action) => action.kind === 'cull' && !action.culled))).toBe(true);
      expect(rows.length + refused.filter(([said]) => said === language).length).toBeGreaterThanOrEqual(24);
    }
    expect(read.length + refused.length).toBeGreaterThanOrEqual(72);
    expect(refused.length).toBeGreaterThanOrEqual(12);
  });

  it('reads every example it answers with, in its own language', () => {
    const kinds: CommandExampleKind[] = ['cull', 'uncull', 'mark-scanned', 'problem', 'batch-status', 'harvest', 'fill-form', 'several'];
    for (const language of COMMAND_LANGUAGES) {
      for (const kind of kinds) {
        const example = COMMAND_PHRASES[language].examples[kind]({ room: 'Flower 1', grid: 'Bench A', batch: 'B-001', form: 'Weekly scouting', problem: 'Spider mites' });
        const parsed = parseCommand(example, language, vocabulary);
        expect(parsed.ok, `${language}: ${example}`).toBe(true);
        if (parsed.ok) expect(parsed.actions.length).toBe(kind === 'several' ? 2 : 1);
      }
    }
  });

  it('answers with the company’s own names in its examples, and names as the company spells them', () => {
    const own: CommandVocabulary = { ...vocabulary, grids: ['Mesa Norte'], batches: ['LOTE-7'], problems: ['Ácaros'] };
    expect(parseCommand('descartar caja 2 en mesa sur', 'es', own)).toEqual({
      ok: false,
      message: 'No hay ninguna cuadrícula llamada «mesa sur». ¿Quiso decir Mesa Norte?',
      example: 'descartar caja 12 en Mesa Norte',
    });
    expect(parseCommand('acaros severidad 2 en caja 1 en MESA NORTE y luego cosechar lote-7', 'es', own)).toEqual({
      ok: true,
      actions: [problem('Ácaros', 2, [1], 'Mesa Norte'), harvest('LOTE-7')],
    });
  });

  it('reads the catalogue’s problem names, also without their words in brackets, and suggests the one meant', () => {
    const catalogue: CommandVocabulary = { ...vocabulary, problems: CATALOGUE.map((entry) => entry.name) };
    expect(parseCommand('bud rot severity 2 on box 3 and then slugs and snails severity 1 on box 4', 'en', catalogue)).toEqual({
      ok: true,
      actions: [problem('Botrytis (grey mould, bud rot)', 2, [3]), problem('Slugs and snails', 1, [4])],
    });
    expect(parseCommand('botrytis ernst 4 op vak 2', 'nl', catalogue)).toEqual({ ok: true, actions: [problem('Botrytis (grey mould, bud rot)', 4, [2])] });
    expect(parseCommand('spider mite severity 2 on box 1', 'en', catalogue)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^There is no problem named “spider mite”\. Did you mean Two-spotted spider mite, /u) as unknown,
      example: 'Two-spotted spider mite severity 3 on boxes 4 to 9 in Bench A',
    });
  });

  it('never throws, and what it reads is always a list save_command keeps', () => {
    const words = [
      ...new Set(
        COMMAND_LANGUAGES.flatMap((language) => Object.values(COMMAND_PHRASES[language].words).flat()),
      ),
      ...Object.values(vocabulary).flat(),
      ...['0', '1', '3', '9', '12', '600', 'twelve', 'doce', 'twaalf', '-', ',', ';', ':', 'b', '001', 'xyzzy', 'Bench', 'ÁCAROS'],
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 14 }), fc.constantFrom(...COMMAND_LANGUAGES), (said, language) => {
        const parsed = parseCommand(said.join(' '), language, vocabulary);
        if (parsed.ok) expect(commandActionsSchema.safeParse(parsed.actions).success).toBe(true);
        else expect(parsed.message.length * parsed.example.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it('takes at most 500 boxes in one command, counting each box once', () => {
    expect(parseCommand('cull boxes 1 to 500 in bench a and boxes 1 to 500 in bench a', 'en', vocabulary)).toMatchObject({ ok: true, actions: [{ boxes: { length: 500 } }] });
    expect(parseCommand('cull boxes 1 to 300 in bench a and boxes 1 to 300 in bench b', 'en', vocabulary)).toMatchObject({ ok: false, message: 'At most 500 boxes in one command.' });
  });
});
