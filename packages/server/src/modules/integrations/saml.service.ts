import { randomBytes } from 'node:crypto';
import type { Profile, SAML } from '@node-saml/node-saml';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ErrorName } from '@tritium/shared';
import type { SignInDeps } from '../auth/sign-in.service.ts';
import { normaliseMobile, startUserSession, userOfIdentity } from './identity-sign-in.ts';
import { browserKeyHash, claimSignInFlow, createSignInFlow, sameBrowserKey } from './sign-in-flows.ts';
import { allowedReturnTo, enabledSettings, loadSsoSettings, SSO_CALLBACK_PATH, type SsoSettings } from './sso.service.ts';
import { certificatesOf, samlAddresses } from './saml-config.ts';

// Enterprise single sign-on by SAML 2.0 (issue 25, docs/decisions/0087), Web Browser SSO profile: an AuthnRequest by
// HTTP-Redirect whose ID is the key of a one-use flow row, the identity provider's Response by HTTP-POST to the
// engine's own assertion consumer, checked by @node-saml/node-saml (a signed assertion, by the configured certificate;
// audience; NotBefore/NotOnOrAfter) and here (the assertion's issuer; a bearer confirmation for this consumer, in
// time, answering a pending request of this engine, claimed once). The consumer hands the browser a one-use code for
// the sign-in page; the session starts when the page redeems it. No request leaves the server: nothing is fetched.

const { SAML_DEFAULT_ATTRIBUTES, SAML_NAME_ID, SSO_FLOW_MINUTES, SAML_HANDOFF_SECONDS } = contracts;

/** Flows of pending AuthnRequests, and the provider name of SAML identities. */
export const SAML_PROVIDER = 'saml';
/** One-use codes the assertion consumer hands the browser (a user to sign in, or the error to say). */
const HANDOFF_PROVIDER = 'saml-handoff';
const FLOW_ERRORS = { invalid: 'SsoStateInvalid', expired: 'SsoStateExpired' } as const;
/** Clocks of the identity provider and this server may differ this much. */
const CLOCK_SKEW_MS = 60_000;
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

/** A signed-in user (with the hash of the starting browser's key), or the error the checks raised. */
type Handoff = { userId: string; keyHash: string } | { error: ErrorName; detail?: unknown };


/** The SAML library, loaded the first time an engine signs in by SAML (an idle server does not hold it). */
const samlLibrary = () => import('@node-saml/node-saml');

async function samlClient(settings: SsoSettings, engineCode: string, requestId = ''): Promise<SAML> {
  const saml = settings.saml!;
  const certificates = certificatesOf(saml.idpCert);
  if (!certificates) throw new AppError('SsoSettingMissing');
  const { SAML, ValidateInResponseTo } = await samlLibrary();
  return new SAML({
    entryPoint: saml.entryPoint,
    issuer: saml.spEntityId,
    callbackUrl: samlAddresses(engineCode, settings.callbackUrl).acsUrl,
    idpCert: certificates,
    idpIssuer: saml.idpIssuer,
    audience: saml.spEntityId,
    identifierFormat: saml.nameIdFormat,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // InResponseTo is checked below against the flow rows, once and in one statement.
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    generateUniqueId: () => requestId,
  });
}

/**
 * Starts a sign-in: a pending request (its ID the flow's key; the hash of a new browser key as its nonce) and the
 * identity provider's address carrying it.
 */
export async function startSaml(db: Db, engineCode: string, redirectUrl: string | undefined, now = new Date()): Promise<{ redirectUrl: string; browserKey: string }> {
  const settings = await enabledSettings(db, engineCode, 'saml');
  const returnTo = allowedReturnTo(redirectUrl, settings.callbackUrl);
  // An XML ID must not begin with a digit.
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const client = await samlClient(settings, engineCode, requestId);
  const browserKey = randomBytes(24).toString('base64url');
  await createSignInFlow(db, { state: requestId, engineCode, provider: SAML_PROVIDER, returnTo, nonce: browserKeyHash(browserKey), minutes: SSO_FLOW_MINUTES }, now);
  return { redirectUrl: await client.getAuthorizeUrlAsync('', undefined, {}), browserKey };
}

/** What went wrong in the library's words, for the error's detail and the log. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown';
}

function rejected(step: string, reason: string): AppError {
  return new AppError('SsoIdentityRejected', { detail: { step, reason } });
}

type Confirmation = { $?: { Method?: string }; SubjectConfirmationData?: { $?: Record<string, string> }[] };

/**
 * The request the signed assertion answers: the InResponseTo of a bearer confirmation meant for this consumer
 * (Recipient) and still in time. The Response's own InResponseTo, outside the signature when only the assertion is
 * signed, must agree with it.
 */
function answeredRequest(profile: Profile, acsUrl: string, now: Date): string {
  const assertion = profile.getAssertion?.() as { Assertion?: { Subject?: { SubjectConfirmation?: Confirmation[] }[] } } | undefined;
  const confirmations = assertion?.Assertion?.Subject?.[0]?.SubjectConfirmation ?? [];
  for (const confirmation of confirmations) {
    const data = confirmation.SubjectConfirmationData?.[0]?.$;
    if (confirmation.$?.Method !== BEARER || !data?.InResponseTo) continue;
    if (data.Recipient !== acsUrl) continue;
    if (!data.NotOnOrAfter || Date.parse(data.NotOnOrAfter) + CLOCK_SKEW_MS <= now.getTime()) continue;
    const responseTo = profile.inResponseTo as string | undefined;
    if (responseTo && responseTo !== data.InResponseTo) throw rejected('assertion', 'InResponseTo of the response and of the assertion differ');
    return data.InResponseTo;
  }
  throw rejected('assertion', 'no bearer subject confirmation for this consumer, in time, answering a request');
}

/** An attribute's first text value; `NameID` is the subject's NameID. */
function attribute(profile: Profile, name: string): string | undefined {
  if (name === SAML_NAME_ID) return profile.nameID?.trim() || undefined;
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const value = attributes[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : undefined;
}

async function signedInUser(db: Db, engineCode: string, samlResponse: string, now: Date): Promise<{ userId: string; keyHash: string; returnTo: string | null }> {
  const settings = await enabledSettings(db, engineCode, 'saml');
  let profile: Profile | null;
  try {
    ({ profile } = await (await samlClient(settings, engineCode)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw rejected('assertion', reasonOf(error));
  }
  if (!profile?.nameID) throw rejected('assertion', 'no subject in the answer');
  // The library checks the issuer of logout messages only: the signed assertion's is checked here.
  if (profile.issuer !== settings.saml!.idpIssuer) throw rejected('assertion', `unknown issuer ${String(profile.issuer).slice(0, 200)}`);
  const requestId = answeredRequest(profile, samlAddresses(engineCode, settings.callbackUrl).acsUrl, now);
  const flow = await claimSignInFlow(db, requestId, SAML_PROVIDER, FLOW_ERRORS, now, engineCode);
  const matchBy = settings.matchBy;
  const matched = attribute(profile, settings.claim || SAML_DEFAULT_ATTRIBUTES[matchBy]);
  const userId = await userOfIdentity(
    db,
    engineCode,
    {
      provider: SAML_PROVIDER,
      // A transient NameID changes at every sign-in: binding it would only pile up rows.
      subject: profile.nameIDFormat === TRANSIENT ? null : `${profile.issuer}|${profile.nameID}`,
      name: attribute(profile, 'displayName') ?? attribute(profile, 'name') ?? attribute(profile, 'cn'),
      mobile: normaliseMobile(matchBy === 'mobile' ? matched : attribute(profile, SAML_DEFAULT_ATTRIBUTES.mobile)),
      email: matchBy === 'email' ? matched : attribute(profile, 'email') ?? attribute(profile, 'mail'),
      employeeNo: matchBy === 'employeeNo' ? matched : undefined,
    },
    { matchBy, createUsers: settings.createUsers },
  );
  return { userId, keyHash: flow.nonce, returnTo: flow.return_to };
}

/**
 * The assertion consumer of one engine (HTTP-POST): checks the answer and answers the page of this site the browser
 * goes to next, with a one-use code that either signs the person in or says why not. Only an unknown engine is
 * answered at once: there is no engine to keep the code in.
 */
export async function consumeSamlResponse(db: Db, engineCode: string, body: contracts.SamlAcsBody, now = new Date()): Promise<string> {
  let handoff: Handoff;
  let returnTo: string | null = null;
  try {
    const signedIn = await signedInUser(db, engineCode, body.SAMLResponse, now);
    handoff = { userId: signedIn.userId, keyHash: signedIn.keyHash };
    returnTo = signedIn.returnTo;
  } catch (error) {
    if (!(error instanceof AppError) || error.errorName === 'EngineNotExist') throw error;
    handoff = { error: error.errorName, ...(error.detail === undefined ? {} : { detail: error.detail }) };
  }
  const code = await createSignInFlow(db, { engineCode, provider: HANDOFF_PROVIDER, returnTo, minutes: SAML_HANDOFF_SECONDS / 60, payload: handoff }, now);
  return `${SSO_CALLBACK_PATH}?${new URLSearchParams({ saml: code })}`;
}

/**
 * The sign-in page's half: the code's session (bound to its engine), or the error the consumer found. Once. A session
 * is handed only to the browser that started the sign-in (its key), so that an answer someone got for themselves
 * cannot be posted from another person's browser to sign that person in as them.
 */
export async function redeemSamlHandoff(deps: SignInDeps, code: string, browserKey: string | undefined, now = new Date()): Promise<contracts.SsoLoginResult> {
  const flow = await claimSignInFlow(deps.db, code, HANDOFF_PROVIDER, FLOW_ERRORS, now);
  const handoff = flow.payload as unknown as Handoff;
  if ('error' in handoff) throw new AppError(handoff.error, handoff.detail === undefined ? {} : { detail: handoff.detail });
  if (!sameBrowserKey(handoff.keyHash, browserKey)) throw new AppError('SsoStateInvalid', { detail: { reason: 'another browser started this sign-in' } });
  return { ...(await startUserSession(deps, flow.engine_code, handoff.userId)), returnTo: flow.return_to };
}

/**
 * This platform's metadata for the identity provider (entity ID, assertion consumer, NameID format), available once
 * SAML is set up, before it is switched on, so that it can be registered first.
 */
export async function samlMetadata(db: Db, engineCode: string): Promise<string> {
  const engine = await db.selectFrom('platform.engines').select('engine_code').where('engine_code', '=', engineCode).executeTakeFirst();
  if (!engine) throw new AppError('EngineNotExist');
  const settings = await loadSsoSettings(engineDb(db, engineCode));
  if (!settings?.saml || !settings.callbackUrl) throw new AppError('SsoSettingMissing');
  return (await samlClient(settings, engineCode)).generateServiceProviderMetadata(null, null);
}
