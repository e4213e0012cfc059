import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as the tests read it: who it went to, its subject, and its two bodies. */
export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  /** smtp://user:secret@127.0.0.1:<port>, as SMTP_URL. */
  url: string;
  /** Every mail received, in order. */
  mails: ReceivedMail[];
  /** The next `count` messages are refused with a 451 (a temporary failure), as a busy server would. */
  failNext(count: number): void;
  /** How many deliveries were refused so far. */
  refused(): number;
  /** Resolves with the first mail to `to` whose subject matches, received already or within `timeoutMs`. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** The first link of a mail's text that starts with `prefix`. */
  linkIn(mail: ReceivedMail, prefix: string): string;
  close(): Promise<void>;
}

const USER = 'mailer';
const PASSWORD = 'smtp-secret';

function asReceived(parsed: ParsedMail): ReceivedMail {
  const address = (value: ParsedMail['to'] | ParsedMail['from']) => (Array.isArray(value) ? value[0] : value)?.value[0]?.address ?? '';
  return { to: address(parsed.to), from: address(parsed.from), subject: parsed.subject ?? '', text: parsed.text ?? '', html: parsed.html || '' };
}

/**
 * A real SMTP server on loopback (the `smtp-server` package), with a password, without TLS, keeping each mail parsed
 * (`mailparser`) in memory: the service under test sends to it as to any server.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  let failing = 0;
  let refusedCount = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      if (failing > 0) {
        failing--;
        refusedCount++;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream).then(
        (parsed) => {
          mails.push(asReceived(parsed));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    mails,
    failNext(count) {
      failing = count;
    },
    refused: () => refusedCount,
    async waitFor(to, subject = /./, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.to === to && subject.test(m.subject));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    linkIn(mail, prefix) {
      const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
      if (!link) throw new Error(`no link starting ${prefix} in the mail`);
      return link;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
