/**
 * Runs a confirmed command (issue 18): each action through the same domain functions the screens use
 * (a cull as the box panel's, a problem as BoxProblems', a status as the batch screens', …), so it is
 * queued, shows at once and reaches the server once like any other change; then save_command once with
 * the command's text and its actions. Opening a form for boxes is a navigation, done by the bar after
 * everything else has been recorded (it leaves the screen).
 *
 * Each action's outbox entries are noted (the recorder is watched while it runs), so the bar can say of
 * each whether it waits for the connection or was refused by the server, as the sync status does.
 */
import type { CommandLanguage } from '../../../common/commands/actions';
import type { ApiContext } from '../../api/context';
import { deferred } from '../../app/deferred';
import type { ActionPlan, ResolvedAction } from './resolve';

// The domain functions load with the first command run (app/deferred.ts), not with the bar.
const gridsApi = () => import('../../api/grids');
const scansApi = () => import('../../api/scans');
const problemsApi = () => import('../../api/problems');
const batchesApi = () => import('../../api/batches');
const updateCullingStatus = deferred(gridsApi, 'updateCullingStatus');
const markRoomScanned = deferred(scansApi, 'markRoomScanned');
const markGridScanned = deferred(scansApi, 'markGridScanned');
const recordProblem = deferred(problemsApi, 'recordProblem');
const assignStatusToBatches = deferred(batchesApi, 'assignStatusToBatches');
const harvestBatch = deferred(batchesApi, 'harvestBatch');
const saveCommand = deferred(() => import('../../api/commands'), 'saveCommand');

/** Where a fill-form action goes: the fill screen for the boxes, as the box panel's "Fill a form" opens it. */
export interface FormToFill {
  templateId: string;
  templateName: string;
  search: { boxes: string; room: string };
}

/** What became of one action: the entries it recorded, and the message that stopped it (part of it may have been recorded). */
export interface ActionOutcome {
  entryIds: string[];
  error: string | null;
  /** A form to open (fill-form): nothing is recorded until the grower fills it. */
  form: FormToFill | null;
}

export interface CommandRun {
  outcomes: ActionOutcome[];
  /** save_command's outcome. */
  saved: ActionOutcome;
  /** The form to open now, if the command asked for one. */
  form: FormToFill | null;
}

export interface CommandRunInput {
  command: string;
  language: CommandLanguage;
  /** Every plan resolved (resolve.ts `runnable`). */
  plans: ReadonlyArray<ActionPlan & { resolved: ResolvedAction }>;
  user: { userId: number; companyId: number };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The context with its recorder watched: the ids of the entries recorded through it go to `seen`. */
function watched(context: ApiContext, seen: string[]): ApiContext {
  const { recorder } = context;
  return {
    ...context,
    recorder: {
      record: async (drafts) => {
        const entries = await recorder.record(drafts);
        seen.push(...entries.map((entry) => entry.id));
        return entries;
      },
      awaitsCreate: (clientIds) => recorder.awaitsCreate(clientIds),
      hasPendingEffects: (collection, id) => recorder.hasPendingEffects(collection, id),
    },
  };
}

/** One action through its domain function(s); a box at a time where the screens do it a box at a time. */
async function perform(context: ApiContext, resolved: ResolvedAction, user: CommandRunInput['user']): Promise<FormToFill | null> {
  switch (resolved.kind) {
    case 'cull':
      for (const box of resolved.boxes) await updateCullingStatus(context, { gridBoxId: box.id, userId: user.userId, culled: resolved.culled });
      return null;
    case 'mark-room':
      await markRoomScanned(context, { roomId: resolved.room.id, userId: user.userId });
      return null;
    case 'mark-grid':
      await markGridScanned(context, { gridId: resolved.grid.id, userId: user.userId });
      return null;
    case 'problem':
      for (const box of resolved.boxes) {
        await recordProblem(context, { gridBoxId: box.id, problemType: resolved.problem, severity: resolved.severity, notes: resolved.notes, userId: user.userId });
      }
      return null;
    case 'batch-status':
      await assignStatusToBatches(context, { companyId: user.companyId, batchStatus: resolved.status, batchIds: [resolved.batch.id] });
      return null;
    case 'harvest':
      await harvestBatch(context, { batchId: resolved.batch.id, companyId: user.companyId, userId: user.userId });
      return null;
    case 'fill-form':
      return {
        templateId: String(resolved.form.TemplateID ?? resolved.form.id),
        templateName: String(resolved.form.TemplateName ?? ''),
        search: { boxes: resolved.boxes.map((box) => box.id).join(','), room: resolved.grid.roomId },
      };
  }
}

/**
 * Runs the actions in the order said, each on its own (one refused does not stop the next: each is a
 * change the grower confirmed), then keeps the command with save_command, once.
 */
export async function runCommand(context: ApiContext, input: CommandRunInput): Promise<CommandRun> {
  const outcomes: ActionOutcome[] = [];
  let form: FormToFill | null = null;
  for (const plan of input.plans) {
    const entryIds: string[] = [];
    try {
      const opens = await perform(watched(context, entryIds), plan.resolved, input.user);
      form ??= opens;
      outcomes.push({ entryIds, error: null, form: opens });
    } catch (error) {
      outcomes.push({ entryIds, error: messageOf(error), form: null });
    }
  }
  const savedIds: string[] = [];
  let saved: ActionOutcome;
  try {
    await saveCommand(watched(context, savedIds), { userId: input.user.userId, command: input.command, parsed: input.plans.map((plan) => plan.action), language: input.language });
    saved = { entryIds: savedIds, error: null, form: null };
  } catch (error) {
    saved = { entryIds: savedIds, error: messageOf(error), form: null };
  }
  return { outcomes, saved, form };
}
