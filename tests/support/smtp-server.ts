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

export interface SmtpServerOptions {
  /**
   * Answers RCPT TO for an address: a reply code (550: no such mailbox, 451: try again later)
   * or undefined to accept it. Lets a test act out bounces and greylisting per address.
   */
  rcptReply?: (address: string) => number | undefined;
  /** Called for each accepted mail, before the server answers 250 to it. */
  onMail?: (mail: CapturedMail) => void;
}

/** A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps every mail it receives. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<LocalSmtpServer> {
  const port = await freePort();
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const code = options.rcptReply?.(address.address);
      if (code === undefined) return callback();
      const error = Object.assign(new Error(code >= 500 ? 'No such mailbox here' : 'Greylisted, try again later'), { responseCode: code });
      callback(error);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw };
        mails.push(mail);
        options.onMail?.(mail);
        callback();
      });
    },
  });
  // A client that dies mid-session (a sender killed with -9) resets its socket; a real server
  // shrugs that off, and so does this one. Anything else still surfaces.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') throw error;
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
