import type * as Oidc from 'openid-client';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused } from '../../lib/outbound-http.ts';
import type { SignInDeps } from '../auth/sign-in.service.ts';
import { loadProvider, saveProvider, type EngineExecutor } from './provider-settings.ts';
import { normaliseMobile, signInWithIdentity } from './identity-sign-in.ts';
import { browserKeyHash, claimSignInFlow, createSignInFlow, sameBrowserKey } from './sign-in-flows.ts';
import { assertCertificates, samlAddresses } from './saml-config.ts';
import type { OperationActor } from '../audit/oplog.ts';

// Enterprise single sign-on by OpenID Connect (issue 25, docs/decisions/0051): authorization code with PKCE (S256),
// state and nonce, the issuer's discovery document, its id_token checked by openid-client (signature, issuer,
// audience, expiry, nonce). The state is the key of a one-use flow row; the redirect URI is only ever the saved one.

const { SSO_DEFAULT_CLAIMS, SSO_FLOW_MINUTES } = contracts;
type SsoMatchBy = contracts.SsoMatchBy;

export const SSO_PROVIDER = 'oidc';
/** The web page the identity provider sends the browser back to (the default callback address). */
export const SSO_CALLBACK_PATH = '/entry/login/sso/callback';

export interface SsoSettings {
  protocol: contracts.SsoProtocol;
  enabled: boolean;
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  matchBy: SsoMatchBy;
  claim: string;
  createUsers: boolean;
  callbackUrl: string;
  /** Saved SAML settings, if any (docs/decisions/0087). */
  saml: contracts.SamlSettings | null;
}

function settingsOf(row: Awaited<ReturnType<typeof loadProvider>>): SsoSettings | null {
  if (!row) return null;
  const s = row.settings;
  const saml = contracts.SamlSettings.safeParse(s.saml);
  return {
    protocol: contracts.SsoProtocol.catch('oidc').parse(s.protocol),
    enabled: row.enabled,
    issuerUrl: String(s.issuerUrl ?? ''),
    clientId: String(s.clientId ?? ''),
    clientSecret: row.secrets.clientSecret ?? '',
    scopes: String(s.scopes ?? ''),
    matchBy: contracts.SsoMatchBy.catch('mobile').parse(s.matchBy),
    claim: String(s.claim ?? ''),
    createUsers: s.createUsers === true,
    callbackUrl: String(s.callbackUrl ?? ''),
    saml: saml.success ? saml.data : null,
  };
}

export async function loadSsoSettings(edb: EngineExecutor): Promise<SsoSettings | null> {
  return settingsOf(await loadProvider(edb, SSO_PROVIDER));
}

/** The Administrator's view: everything but the secret, which is only said to be set. */
export async function ssoSettingView(edb: EngineExecutor, engineCode: string, suggestedCallbackUrl: string): Promise<contracts.SsoSettingDto> {
  const s = await loadSsoSettings(edb);
  const saml = samlAddresses(engineCode, s?.callbackUrl || suggestedCallbackUrl);
  return {
    configured: !!s,
    protocol: s?.protocol ?? 'oidc',
    enabled: s?.enabled ?? false,
    issuerUrl: s?.issuerUrl ?? '',
    clientId: s?.clientId ?? '',
    hasClientSecret: !!s?.clientSecret,
    scopes: s?.scopes ?? 'profile email phone',
    matchBy: s?.matchBy ?? 'mobile',
    claim: s?.claim ?? '',
    createUsers: s?.createUsers ?? false,
    callbackUrl: s?.callbackUrl ?? '',
    suggestedCallbackUrl,
    saml: s?.saml ?? { entryPoint: '', idpCert: '', idpIssuer: '', spEntityId: saml.metadataUrl, nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' },
    samlAcsUrl: saml.acsUrl,
    samlMetadataUrl: saml.metadataUrl,
  };
}

/**
 * Saves the settings. SAML's are kept when OpenID Connect is chosen without them (and the other way round), so that
 * switching the protocol back loses nothing; an unreadable certificate is refused (777) before anything is stored.
 */
export async function saveSsoSettings(edb: EngineExecutor, engineCode: string, actor: OperationActor & { userId: string }, body: contracts.SsoSettingSaveBody, suggestedCallbackUrl: string): Promise<contracts.SsoSettingDto> {
  const { clientSecret, enabled, ...settings } = body;
  if (settings.saml) assertCertificates(settings.saml.idpCert);
  const saml = settings.saml ?? (await loadSsoSettings(edb))?.saml ?? undefined;
  await saveProvider(edb, SSO_PROVIDER, actor, { enabled, settings: { ...settings, saml, issuerUrl: settings.issuerUrl.replace(/\/+$/, '') }, secrets: { clientSecret } });
  return ssoSettingView(edb, engineCode, suggestedCallbackUrl);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The OpenID Connect library, loaded the first time an engine signs in by it (an idle server does not hold it). */
const oidcLibrary = () => import('openid-client');

/**
 * The issuer's configuration from its discovery document; any failure (unreachable, issuer mismatch, an address of
 * the platform's own network refused by the outbound fetch) is 208004. The configuration keeps that fetch for the
 * token and user-info requests too.
 */
async function discover(settings: SsoSettings, http: typeof fetch): Promise<Oidc.Configuration> {
  const oidc = await oidcLibrary();
  const issuer = new URL(settings.issuerUrl);
  // Plain http only for an issuer on this machine (tests, a local gateway); anything else must be https.
  const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
  try {
    return await oidc.discovery(issuer, settings.clientId, settings.clientSecret || undefined, undefined, {
      timeout: 10,
      [oidc.customFetch]: http as Oidc.CustomFetch,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    throw new AppError('SsoIdentityRejected', { detail: { step: 'discovery', reason: reasonOf(error) } });
  }
}

/** What went wrong, for the error's detail and the log: the library's message and the claim it names, if any. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  // The outbound fetch's refusal travels as the library's cause: say it, not "something went wrong".
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof OutboundRefused) return `${e.name}: ${e.message}`.slice(0, 300);
  const cause = error.cause as { claim?: unknown; cause?: { claim?: unknown } } | undefined;
  const claim = cause?.claim ?? cause?.cause?.claim;
  return `${error.name}: ${error.message}${typeof claim === 'string' ? ` (${claim})` : ''}`.slice(0, 300);
}

/**
 * Where to go after signing in: a path of this site, or an address on the callback's own origin; nothing else, so
 * that a sign-in link cannot send a fresh session to another site.
 */
export function allowedReturnTo(value: string | undefined, callbackUrl: string): string | null {
  if (!value) return null;
  const origin = new URL(callbackUrl).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    throw new AppError('SsoRedirectNotAllowed');
  }
  const relative = value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
  if (url.origin !== origin || (!relative && !/^https?:\/\//i.test(value))) throw new AppError('SsoRedirectNotAllowed');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The engine's switched-on settings for one protocol; 208001 when the engine's single sign-on speaks another. */
export async function enabledSettings(db: Db, engineCode: string, protocol: contracts.SsoProtocol = 'oidc'): Promise<SsoSettings> {
  const settings = await switchedOnSettings(db, engineCode);
  if (settings.protocol !== protocol) throw new AppError('SsoSettingMissing');
  if (protocol === 'oidc' && (!settings.issuerUrl || !settings.clientId)) throw new AppError('SsoSettingMissing');
  if (protocol === 'saml' && !settings.saml) throw new AppError('SsoSettingMissing');
  return settings;
}

/** The engine's settings when its single sign-on is switched on (either protocol); 208001 otherwise. */
export async function switchedOnSettings(db: Db, engineCode: string): Promise<SsoSettings> {
  const engine = await db.selectFrom('platform.engines').select('engine_code').where('engine_code', '=', engineCode).executeTakeFirst();
  if (!engine) throw new AppError('EngineNotExist');
  const settings = await loadSsoSettings(engineDb(db, engineCode));
  if (!settings?.enabled || !settings.callbackUrl) throw new AppError('SsoSettingMissing');
  return settings;
}

/** Starts a sign-in: a flow row (state, nonce, PKCE verifier) and the issuer's authorization address. */
export async function startSso(db: Db, http: typeof fetch, engineCode: string, redirectUrl: string | undefined, now = new Date()): Promise<contracts.SsoStartResult> {
  const settings = await enabledSettings(db, engineCode);
  const returnTo = allowedReturnTo(redirectUrl, settings.callbackUrl);
  const config = await discover(settings, http);
  const oidc = await oidcLibrary();
  const nonce = randomBytes(24).toString('base64url');
  const verifier = oidc.randomPKCECodeVerifier();
  // The tab that starts the sign-in keeps a key; the code the issuer sends back is redeemed only with it (as SAML's, 0087).
  const browserKey = randomBytes(24).toString('base64url');
  const state = await createSignInFlow(db, { engineCode, provider: SSO_PROVIDER, nonce, codeVerifier: verifier, returnTo, minutes: SSO_FLOW_MINUTES, payload: { keyHash: browserKeyHash(browserKey) } }, now);
  const scope = ['openid', ...settings.scopes.split(/\s+/).filter((s) => s && s !== 'openid')].join(' ');
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: settings.callbackUrl,
    response_type: 'code',
    scope,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { redirectUrl: url.toString(), browserKey };
}

/** Completes a sign-in from the issuer's answer (code, state, iss) and starts the engine-bound session. */
export async function completeSso(deps: SignInDeps & { http: typeof fetch }, query: contracts.SsoLoginQuery, now = new Date()): Promise<contracts.SsoLoginResult> {
  const flow = await claimSignInFlow(deps.db, query.state ?? '', SSO_PROVIDER, { invalid: 'SsoStateInvalid', expired: 'SsoStateExpired' }, now);
  const settings = await enabledSettings(deps.db, flow.engine_code);
  if (query.error) throw new AppError('SsoIdentityRejected', { detail: { step: 'authorize', reason: query.error } });
  // An answer handed to another browser (a login link sent to someone, a leaked callback address) is refused: the state is spent.
  if (!sameBrowserKey((flow.payload as { keyHash?: string } | null)?.keyHash, query.key)) throw new AppError('SsoStateInvalid', { detail: { reason: 'another browser started this sign-in' } });
  const config = await discover(settings, deps.http);
  const oidc = await oidcLibrary();
  const current = new URL(settings.callbackUrl);
  for (const name of ['code', 'state', 'iss'] as const) if (query[name] !== undefined) current.searchParams.set(name, query[name]!);
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.code_verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no id_token claims');
    claims = { ...idClaims };
    if (config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
  } catch (error) {
    throw new AppError('SsoIdentityRejected', { detail: { step: 'token', reason: reasonOf(error) } });
  }
  const text = (name: string) => (typeof claims[name] === 'string' || typeof claims[name] === 'number' ? String(claims[name]).trim() : undefined);
  const matchClaim = settings.claim || SSO_DEFAULT_CLAIMS[settings.matchBy];
  const matched = text(matchClaim);
  const issuer = String(claims.iss);
  const session = await signInWithIdentity(
    deps,
    flow.engine_code,
    {
      provider: SSO_PROVIDER,
      subject: `${issuer}|${String(claims.sub)}`,
      name: text('name'),
      mobile: normaliseMobile(settings.matchBy === 'mobile' ? matched : claims.phone_number),
      email: settings.matchBy === 'email' ? matched : text('email'),
      employeeNo: settings.matchBy === 'employeeNo' ? matched : undefined,
    },
    { matchBy: settings.matchBy, createUsers: settings.createUsers },
  );
  return { ...session, returnTo: flow.return_to };
}

/** Drops flows that ended a day ago or more (the scheduler's housekeeping). */
export async function purgeSignInFlows(db: Db): Promise<void> {
  await db.deleteFrom('platform.sign_in_flows').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
