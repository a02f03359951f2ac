/**
 * A notification as a Microsoft Teams incoming-webhook message: a message carrying one Adaptive Card
 * (learn.microsoft.com, "Send Adaptive Cards using an Incoming Webhook"), the format both the Teams
 * Workflows webhooks and the older connector webhooks accept (the legacy MessageCard only the latter).
 * The card shows the subject as a title, the text, and the link as an Open URL action. Version 1.2 of
 * the card schema: every Teams client draws it. The text is cut well inside Teams' 28 kB per message.
 * An attachment cannot travel by webhook: a weekly report sends its link instead.
 */
import type { MessageContent } from './delivery';

const TEXT_MAX = 20_000;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export interface TeamsMessage {
  type: 'message';
  attachments: Array<{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: Record<string, unknown> }>;
}

export function teamsMessage(message: MessageContent): TeamsMessage {
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.2',
    body: [
      { type: 'TextBlock', text: message.subject, weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'TextBlock', text: cut(message.text, TEXT_MAX), wrap: true },
    ],
    actions: message.link ? [{ type: 'Action.OpenUrl', title: message.link.label, url: message.link.url }] : [],
  };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
}
