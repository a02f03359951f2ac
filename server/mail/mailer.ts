/**
 * Outgoing mail. With SMTP_URL it is sent through nodemailer; without it, each message is written to
 * DATA_DIR/mail/ and the log says where, so a local user finds invitation and reset links. The log
 * never carries a message's body: its links are credentials.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
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
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(folder, `${stamp}-${message.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.txt`);
      await writeFile(file, `To: ${message.to}\nFrom: ${options.from}\nSubject: ${message.subject}\n\n${message.text}\n`, { mode: 0o600 });
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (no SMTP_URL set)');
    },
    close: () => undefined,
  };
}
