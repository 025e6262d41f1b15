/**
 * A real SMTP server (the `smtp-server` package) on loopback for the mail
 * tests: the service's SMTP client (nodemailer, SMTP_URL) delivers to it over
 * SMTP, and the tests wait for the mails it receives (events, not sleeps).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitBound } from './bounds.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text body, decoded (quoted-printable or base64 as sent). */
  text: string;
  /** The `token` of the link in the text, if any. */
  token: string | null;
}

export interface TestSmtp {
  /** SMTP_URL of the server. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` (with this subject, when given) not taken yet, waiting up to timeoutMs. */
  take(to: string, subject?: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The mails to `to` (with this subject, when given) not taken yet. */
  waiting(to: string, subject?: string): ReceivedMail[];
  close(): Promise<void>;
}

function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*([\w-]+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const text = decodeBody(headers, raw.slice(split + 4))
    .replace(/\r\n/g, '\n')
    .trim();
  return {
    from,
    to,
    subject: /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? '',
    text,
    token: /[?&]token=([\w%-]+)/.exec(text)?.[1] ? decodeURIComponent(/[?&]token=([\w%-]+)/.exec(text)![1]!) : null,
  };
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(
          parse(
            Buffer.concat(chunks).toString('latin1'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const w of [...waiters]) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const waiting = (to: string, subject?: string) =>
    received.filter((m) => !taken.has(m) && m.to.includes(to.toLowerCase()) && (subject === undefined || m.subject === subject));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waiting,
    take(to, subject, requestedMs = 10_000) {
      const timeoutMs = waitBound(requestedMs);
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = waiting(to, subject)[0];
          if (!found) return false;
          taken.add(found);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${received.map((m) => m.to.join(',')).join('; ') || 'none'})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
