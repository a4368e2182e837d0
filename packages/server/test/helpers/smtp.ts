/** A real SMTP server on loopback (smtp-server, no TLS, no auth) that keeps every message it receives. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  /** The envelope sender ('' for a null sender). */
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received, in arrival order. */
  inbox: ReceivedMail[];
  /** Addresses refused once with a temporary error (451), then accepted: a recipient's server that was busy. */
  refuseOnce: Set<string>;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: ReceivedMail[] = [];
  const refuseOnce = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuseOnce.delete(address.address)) return callback();
      const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    refuseOnce,
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}
