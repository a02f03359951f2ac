/**
 * A notification as a Slack incoming-webhook message (api.slack.com/messaging/webhooks): `text` is the
 * fallback Slack shows in notifications and where blocks are not drawn; `blocks` (Block Kit) show the
 * subject as a header, the text in sections and the link as a button. Slack's limits are kept: a header
 * of at most 150 characters, a section of at most 3,000, a button label of at most 75, 50 blocks.
 * An attachment cannot travel by webhook: a weekly report sends its link instead.
 */
import type { MessageContent } from './delivery';

const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const BUTTON_LABEL_MAX = 75;
/** Sections for the text: with the header and the button, within Slack's 50 blocks. */
const SECTIONS_MAX = 40;

/** Slack reads &, < and > as markup (`<!channel>` would ping everyone): they are escaped in mrkdwn text. */
const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The text in pieces of at most `max` characters, cut at line ends where it can be. */
function pieces(text: string, max: number): string[] {
  const result: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const lineEnd = rest.lastIndexOf('\n', max);
    const at = lineEnd > max / 2 ? lineEnd : max;
    result.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest.trim() !== '') result.push(rest);
  return result;
}

export interface SlackMessage {
  text: string;
  blocks: Array<Record<string, unknown>>;
}

export function slackMessage(message: MessageContent): SlackMessage {
  const sections = pieces(escapeMrkdwn(message.text), SECTION_MAX).slice(0, SECTIONS_MAX);
  const blocks: Array<Record<string, unknown>> = [
    { type: 'header', text: { type: 'plain_text', text: cut(message.subject, HEADER_MAX), emoji: true } },
    ...sections.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } })),
  ];
  if (message.link) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: cut(message.link.label, BUTTON_LABEL_MAX), emoji: true }, url: message.link.url }],
    });
  }
  const linkLine = message.link ? `\n<${escapeMrkdwn(message.link.url)}|${escapeMrkdwn(message.link.label)}>` : '';
  return { text: `${escapeMrkdwn(message.subject)}\n${cut(escapeMrkdwn(message.text), SECTION_MAX)}${linkLine}`, blocks };
}
