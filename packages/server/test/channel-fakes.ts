import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

// Real protocol peers for the notification channel tests (issue 20): an SMTP server that takes mail, and an HTTP
// server that plays an SMS provider or a chat platform's robot webhook.

export interface ReceivedMail {
  from: string | undefined;
  recipients: string[];
  mail: ParsedMail;
}

export interface FakeSmtp {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 that takes mail only after sign-in with the given user and password. */
export async function startFakeSmtp(credentials: { user: string; password: string }): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === credentials.user && auth.password === credentials.password) return done(null, { user: auth.username });
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
          mails.push({ from, recipients: session.envelope.rcptTo.map((r) => r.address), mail });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface ReceivedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeHttp {
  url: string;
  requests: ReceivedRequest[];
  /** What the next requests are answered (status and JSON body); default 200 with `{}`. */
  answer: (request: ReceivedRequest) => { status: number; body: unknown };
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records each JSON request and answers with `answer`. */
export async function startFakeHttp(): Promise<FakeHttp> {
  const fake: FakeHttp = { url: '', requests: [], answer: () => ({ status: 200, body: {} }), close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const received = { method: req.method ?? '', url: new URL(req.url ?? '/', fake.url), headers: req.headers, body };
      fake.requests.push(received);
      const { status, body: answer } = fake.answer(received);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** A port on 127.0.0.1 where nothing listens (taken and released at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
