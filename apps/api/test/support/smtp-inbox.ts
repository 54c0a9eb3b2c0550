import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server inside the test process: the api's mailer sends to it, tests read what arrived.

export interface Mail {
  to: string;
  raw: string;
  text: string;
}

/** Quoted-printable soft breaks and escapes, as nodemailer writes long lines. */
function decodeQp(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export class SmtpInbox {
  readonly mails: Mail[] = [];
  private waiters: Array<() => void> = [];
  readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        this.mails.push({ to, raw, text: decodeQp(raw) });
        this.waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.server.address() as AddressInfo).port)),
    );
  }

  async next(to: string, subject: RegExp, timeoutMs = 5000): Promise<Mail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.mails.findIndex((m) => m.to.toLowerCase() === to.toLowerCase() && subject.test(m.text));
      if (i >= 0) return this.mails.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
