/**
 * Outgoing mail. With SMTP_URL it is sent through nodemailer; without it, each message is written to
 * DATA_DIR/mail/ and the log says where, so a local user finds invitation and reset links. The log
 * never carries a message's body: its links are credentials. A message's HTML part and attachments
 * (notification deliveries: a weekly report with its CSV) are written beside its .txt file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailAttachment {
  filename: string;
  content: string;
  contentType: string;
}

export interface MailMessage {
  /** One address, or several separated by commas. */
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  attachments?: MailAttachment[] | undefined;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
        options.log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const folder = join(options.dataDir, 'mail');
  return {
    async send(message) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      // Several messages to one address in the same millisecond (a burst of notifications) keep a file each.
      const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
      const base = join(folder, `${stamp}-${message.to.replace(/[^A-Za-z0-9@._-]/g, '_').slice(0, 120)}`);
      const file = `${base}.txt`;
      const attachments = message.attachments ?? [];
      const attached = attachments.length > 0 ? `Attached: ${attachments.map((attachment) => attachment.filename).join(', ')}\n` : '';
      await writeFile(file, `To: ${message.to}\nFrom: ${options.from}\nSubject: ${message.subject}\n${attached}\n${message.text}\n`, { mode: 0o600 });
      if (message.html !== undefined) await writeFile(`${base}.html`, message.html, { mode: 0o600 });
      for (const attachment of attachments) {
        await writeFile(`${base}-${attachment.filename.replace(/[^A-Za-z0-9._-]/g, '_')}`, attachment.content, { mode: 0o600 });
      }
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (no SMTP_URL set)');
    },
    close: () => undefined,
  };
}
