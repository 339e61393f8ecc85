import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

// A local SAML 2.0 identity provider for the single sign-on tests and browser scenarios (issue 25, decision 0087):
// its single sign-on address takes an AuthnRequest by HTTP-Redirect and shows a page whose button posts a Response
// to the request's assertion consumer (HTTP-POST binding). Assertions are signed with xml-crypto (RSA-SHA256,
// exclusive c14n) by a key and self-signed certificate made with openssl at start. `respond` builds any Response a
// test wants: another audience, a past NotOnOrAfter, no signature, another key, a change after signing.

export interface KeyPair {
  key: string;
  cert: string;
}

/** An RSA key and a self-signed certificate for it (openssl; a second call makes another pair). */
export function makeKeyPair(commonName = 'fake-idp'): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${commonName}`], { stdio: 'ignore' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SamlPerson {
  nameId: string;
  /** Default: unspecified. */
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
}

export interface ResponseOptions {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  person: SamlPerson;
  issuer?: string;
  /** When the assertion stops being valid (Conditions and the bearer confirmation); default in 5 minutes. */
  notOnOrAfter?: Date;
  /** Sign the assertion (default), or nothing. */
  signed?: boolean;
  /** Sign with this key instead of the provider's. */
  keyPair?: KeyPair;
  /** Changes the signed XML afterwards (a tampered answer). */
  tamper?: (xml: string) => string;
}

export interface PendingRequest {
  id: string;
  acsUrl: string;
  spEntityId: string;
  nameIdFormat: string | undefined;
  relayState: string | null;
}

export interface SamlIdp {
  /** The single sign-on address (HTTP-Redirect binding). */
  ssoUrl: string;
  entityId: string;
  /** The signing certificate, PEM: what the administrator pastes. */
  cert: string;
  /** Who the page signs in next. */
  person: SamlPerson;
  /** The AuthnRequests received, in order. */
  requests: PendingRequest[];
  /** A base64 Response as the provider would post it. */
  respond(options: ResponseOptions): string;
  /** The Response for a received request, for the current person. */
  answer(request: PendingRequest, over?: Partial<ResponseOptions>): string;
  close(): Promise<void>;
}

const escapeXml = (value: string) => value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const newId = () => `_${randomBytes(16).toString('hex')}`;

function responseXml(o: ResponseOptions & { issuer: string }): string {
  const now = new Date();
  const until = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const attributes = Object.entries(o.person.attributes ?? {})
    .map(([name, value]) => `<saml:Attribute Name="${escapeXml(name)}">${(Array.isArray(value) ? value : [value]).map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escapeXml(o.acsUrl)}" InResponseTo="${escapeXml(o.inResponseTo)}">` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${escapeXml(o.person.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified')}">${escapeXml(o.person.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escapeXml(o.inResponseTo)}" NotOnOrAfter="${until}" Recipient="${escapeXml(o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${new Date(now.getTime() - 30_000).toISOString()}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`
  );
}

function signAssertion(xml: string, pair: KeyPair): string {
  const signature = new SignedXml({
    privateKey: pair.key,
    publicCert: pair.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signature.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return signature.getSignedXml();
}

const attr = (xml: string, element: string, name: string) => new RegExp(`<(?:\\w+:)?${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];

/** Reads an AuthnRequest from the HTTP-Redirect binding's query (deflated, base64). */
export function readAuthnRequest(url: URL): PendingRequest {
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  return {
    id: attr(xml, 'AuthnRequest', 'ID') ?? '',
    acsUrl: attr(xml, 'AuthnRequest', 'AssertionConsumerServiceURL') ?? '',
    spEntityId: /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '',
    nameIdFormat: attr(xml, 'NameIDPolicy', 'Format'),
    relayState: url.searchParams.get('RelayState'),
  };
}

export async function startSamlIdp(options: { entityId?: string } = {}): Promise<SamlIdp> {
  const pair = makeKeyPair();
  let server: Server;
  const idp: SamlIdp = {
    ssoUrl: '',
    entityId: options.entityId ?? 'urn:tritium-test:idp',
    cert: pair.cert,
    person: { nameId: 'nobody' },
    requests: [],
    respond(o) {
      const xml = responseXml({ ...o, issuer: o.issuer ?? idp.entityId });
      const signed = o.signed === false ? xml : signAssertion(xml, o.keyPair ?? pair);
      return Buffer.from(o.tamper ? o.tamper(signed) : signed, 'utf8').toString('base64');
    },
    answer(request, over = {}) {
      return idp.respond({ inResponseTo: request.id, acsUrl: request.acsUrl, audience: request.spEntityId, person: idp.person, ...over });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/sso' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    let request: PendingRequest;
    try {
      request = readAuthnRequest(url);
    } catch {
      res.writeHead(400).end('bad SAMLRequest');
      return;
    }
    idp.requests.push(request);
    // The provider's sign-in page: who is signing in, and a button that posts the signed answer back.
    const page =
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>测试身份提供方</title></head><body style="font-family:sans-serif;padding:40px">` +
      `<h1>测试身份提供方</h1><p>即将以 <b>${escapeXml(idp.person.nameId)}</b> 的身份登录到 ${escapeXml(request.spEntityId)}</p>` +
      `<form method="post" action="${escapeXml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${idp.answer(request)}">` +
      (request.relayState ? `<input type="hidden" name="RelayState" value="${escapeXml(request.relayState)}">` : '') +
      `<button type="submit">继续登录</button></form></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  idp.ssoUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;
  return idp;
}
