import { SMTPServer } from 'smtp-server';
import { freePort } from './server';

export interface CapturedMail {
  to: string[];
  raw: string;
}

export interface LocalSmtpServer {
  url: string;
  mails: CapturedMail[];
  /** Waits for a mail to `to` and returns it. */
  waitForMail(to: string, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
}

/** The body of a mail as text, quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps every mail it receives. */
export async function startSmtpServer(): Promise<LocalSmtpServer> {
  const port = await freePort();
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find((m) => m.to.includes(to));
        if (mail) return mail;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
