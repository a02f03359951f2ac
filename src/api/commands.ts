/**
 * Domain functions of the command bar (issue 18; spec part 2 "AI chat: command text and a parsed data
 * list"). A command's actions go through their own domain functions (src/features/commands/run.ts);
 * this keeps the command itself.
 *
 * Decision: no local document. The store's twelve collections are taken (ARCHITECTURE.md "The local
 * store"), and nothing on the tablet reads commands back: what a command did shows where its actions
 * did it. The command waits in the outbox like any change and is kept by the server once.
 */
import type { CommandAction, CommandLanguage } from '../../common/commands/actions';
import { newClientId } from '../../common/client-ids';
import { changeLabels } from '../../common/messages/changes';
import { commandMessages } from '../../common/messages/commands';
import { saveCommandBody } from '../../common/schemas/commands';
import { type ApiContext, check, json, record } from './context';

/**
 * save_command: the command as typed or heard ('command and user_id are required.', at most 500
 * characters), the actions read from it and the language they were read in, by the signed-in user.
 * Queued, under a client id of its own: sent twice (an answer lost), the server keeps it once.
 */
export async function saveCommand(context: ApiContext, input: { userId: number; command: string; parsed: readonly CommandAction[]; language: CommandLanguage }) {
  const values = check(saveCommandBody, { command: input.command, user_id: input.userId, parsed: [...input.parsed], language: input.language });
  const commandId = newClientId();
  await record(context, {
    method: 'POST',
    path: '/save_command',
    body: json({ command: values.command, user_id: values.user_id, parsed: values.parsed, language: values.language, client_id: commandId }),
    creates: [commandId],
    label: changeLabels.keepCommand(values.command),
    fallbackMessage: commandMessages.saveCommandFailed,
  });
  return { command_id: commandId };
}
