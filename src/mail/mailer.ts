/**
 * Outbound mail: password resets and email verification. With SMTP_URL, a
 * real SMTP client (nodemailer); without, a transport that writes each mail
 * to the log instead, link included (development), or only that a mail went
 * unsent where APP_ENV is `main` (a reset link in a production log would be a
 * key in the log). Sending never holds up a request: `send` returns at once,
 * and a mail that fails is logged (its recipient as a digest).
 */
import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { AppEnv, MailConfig } from '../config.js';
import type { Logger } from '../logger.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Hands the mail to the transport in the background. */
  send(mail: Mail): void;
  /** Resolves once every mail handed over so far is sent or has failed (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A recipient as logs name it: never the address itself. */
const recipientDigest = (to: string) => createHash('sha256').update(to.toLowerCase()).digest('base64url').slice(0, 12);

export function createMailer({ config, appEnv, logger }: { config: MailConfig; appEnv: AppEnv; logger: Logger }): Mailer {
  const pending = new Set<Promise<void>>();
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl, { from: config.from }) : null;
  // A pooled transport (`?pool=true`) reports a connection that failed between mails as an 'error' event.
  transport?.on('error', (err) => logger.warn({ err }, 'the SMTP transport failed'));
  const logOnly = async (mail: Mail) => {
    if (appEnv === 'main') logger.warn({ to: recipientDigest(mail.to), subject: mail.subject }, 'mail not sent: SMTP_URL is unset');
    else logger.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail (SMTP_URL is unset: logged, not sent)');
  };
  return {
    send(mail) {
      const sending = (transport ? transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text }).then(() => undefined) : logOnly(mail))
        .catch((err: unknown) => logger.warn({ err, to: recipientDigest(mail.to), subject: mail.subject }, 'mail could not be sent'))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async close() {
      await this.idle();
      transport?.close();
    },
  };
}
