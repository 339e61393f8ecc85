import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

// A local OpenID Connect issuer for the single sign-on tests and browser scenarios (issue 25): discovery, authorize
// (the person to sign in is chosen by the test; the page redirects at once), token with PKCE S256 and client
// authentication, a JWKS and userinfo. id_tokens are RS256 JWTs signed with a key made at start. Knobs let a test make
// the issuer misbehave the way an attacker or a misconfigured provider would.

export interface IssuerPerson {
  sub: string;
  [claim: string]: unknown;
}

export interface OidcIssuer {
  /** The issuer identifier and base address (http://127.0.0.1:<port>). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorize request signs in. */
  person: IssuerPerson;
  /** The redirect URIs registered for the client; others are refused at authorize. */
  redirectUris: string[];
  /** Signs id_tokens with this issuer instead of its own (a wrong issuer). */
  idTokenIssuer?: string;
  /** Answers every token request with the first id_token it ever issued (a replayed token and nonce). */
  replayFirstIdToken: boolean;
  /** The id_tokens issued, in order. */
  issued: string[];
  /** The authorize requests received. */
  authorizeRequests: URL[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  nonce: string | undefined;
  challenge: string;
  person: IssuerPerson;
}

/** The whole request body as text (the local fakes read form and JSON bodies with it). */
export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export async function startOidcIssuer(options: { person?: IssuerPerson; redirectUris?: string[]; host?: string } = {}): Promise<OidcIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = randomBytes(8).toString('hex');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, IssuerPerson>();
  const host = options.host ?? '127.0.0.1';

  const issuer: OidcIssuer = {
    url: '',
    clientId: `client-${randomBytes(4).toString('hex')}`,
    clientSecret: randomBytes(24).toString('base64url'),
    person: options.person ?? { sub: 'person-1', name: '测试用户' },
    redirectUris: options.redirectUris ?? [],
    replayFirstIdToken: false,
    issued: [],
    authorizeRequests: [],
    close: async () => undefined,
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const clientOf = (req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | undefined => {
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':').map((p) => decodeURIComponent(p));
      return { id: id ?? '', secret: secret ?? '' };
    }
    const id = form.get('client_id');
    const secret = form.get('client_secret');
    return id && secret ? { id, secret } : undefined;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer.url);
      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer: issuer.url,
          authorization_endpoint: `${issuer.url}/authorize`,
          token_endpoint: `${issuer.url}/token`,
          jwks_uri: `${issuer.url}/jwks`,
          userinfo_endpoint: `${issuer.url}/userinfo`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          scopes_supported: ['openid', 'profile', 'email', 'phone'],
        });
      }
      if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
      if (req.method === 'GET' && url.pathname === '/authorize') {
        issuer.authorizeRequests.push(url);
        const q = url.searchParams;
        const redirectUri = q.get('redirect_uri') ?? '';
        if (q.get('client_id') !== issuer.clientId || !issuer.redirectUris.includes(redirectUri)) {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          return res.end('unknown client or redirect_uri');
        }
        const back = new URL(redirectUri);
        back.searchParams.set('state', q.get('state') ?? '');
        back.searchParams.set('iss', issuer.url);
        if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !(q.get('scope') ?? '').split(' ').includes('openid')) {
          back.searchParams.set('error', 'invalid_request');
        } else {
          const code = randomBytes(18).toString('base64url');
          codes.set(code, { clientId: issuer.clientId, redirectUri, nonce: q.get('nonce') ?? undefined, challenge: q.get('code_challenge')!, person: { ...issuer.person } });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(req));
        const client = clientOf(req, form);
        if (!client || client.id !== issuer.clientId || client.secret !== issuer.clientSecret) return json(res, 401, { error: 'invalid_client' });
        const code = form.get('code') ?? '';
        const pending = codes.get(code);
        codes.delete(code);
        if (form.get('grant_type') !== 'authorization_code' || !pending || pending.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        const now = Math.floor(Date.now() / 1000);
        const { sub, ...claims } = pending.person;
        let idToken = await new SignJWT({ ...claims, ...(pending.nonce ? { nonce: pending.nonce } : {}) })
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(issuer.idTokenIssuer ?? issuer.url)
          .setSubject(sub)
          .setAudience(issuer.clientId)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey);
        if (issuer.replayFirstIdToken && issuer.issued[0]) idToken = issuer.issued[0];
        issuer.issued.push(idToken);
        const accessToken = randomBytes(24).toString('base64url');
        accessTokens.set(accessToken, pending.person);
        return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, id_token: idToken, scope: 'openid' });
      }
      if (url.pathname === '/userinfo') {
        const person = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
        if (!person) {
          res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
          return res.end();
        }
        return json(res, 200, person);
      }
      json(res, 404, { error: 'not_found' });
    })().catch((error: unknown) => json(res, 500, { error: 'server_error', error_description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  issuer.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  issuer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return issuer;
}
