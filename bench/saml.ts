/**
 * SAML sign-in benchmark (docs/decisions/0087): one sign-in is three calls — the start (GET /v1/login/sso), the
 * assertion consumer (POST …/acs, the signature checked) and the page's redeem (GET /v1/login/sso?saml=) — through
 * app.inject on PGlite, against the local identity provider of the tests. Counted: SQL statements per call (the same on
 * any load) and the process's CPU time per call (user + system, median), and the share of the consumer's CPU spent in
 * node-saml's check alone (timed apart on the same answers).
 * Run: npm run bench:saml   (writes bench/results/saml.json; docs/performance.md "Session 15 — SAML
 * sign-in" quotes it)
 */
import os from 'node:os';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { readAuthnRequest, startSamlIdp } from '../packages/server/test/saml-idp.ts';
import { post, saveResult } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_SAML_ROUNDS ?? 100);
const WARMUP = 10;
const CODE = '246810';
const SITE = 'http://bench.test';

let statements = 0;
const database = await openDatabase({ onQuery: () => void statements++ });
await migratePlatform(database.db);
const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
await app.ready();
const idp = await startSamlIdp();

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (n: number) => Math.round(n * 100) / 100;

try {
  const mobile = '13600000087';
  await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
  const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' } })).json() as any;
  const engineCode = reg.data.engineCode as string;
  const headers = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: engineCode };
  const spEntityId = `${SITE}/saml/${engineCode}`;
  await post(app, '/v1/sysintergration/sso/setting', {
    protocol: 'saml', enabled: true, matchBy: 'mobile', claim: '', createUsers: false, callbackUrl: `${SITE}/entry/login/sso/callback`,
    saml: { entryPoint: idp.ssoUrl, idpCert: idp.cert, idpIssuer: idp.entityId, spEntityId, nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' },
  }, headers);
  idp.person = { nameId: 'bench', attributes: { mobile } };

  const phases = { start: [] as number[], acs: [] as number[], redeem: [] as number[] };
  const counts = { start: 0, acs: 0, redeem: 0 };
  const answers: string[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const measured = i >= WARMUP;
    const step = async <T>(phase: keyof typeof phases, run: () => Promise<T>): Promise<T> => {
      statements = 0;
      const cpu = process.cpuUsage();
      const result = await run();
      if (measured) {
        phases[phase].push(cpuMs(cpu));
        counts[phase] = statements;
      }
      return result;
    };
    const started = await step('start', () => app.inject({ method: 'GET', url: '/v1/login/sso', query: { engineCode } }));
    const { redirectUrl, browserKey } = started.json().data;
    const answer = idp.answer(readAuthnRequest(new URL(redirectUrl)));
    if (measured) answers.push(answer);
    const consumed = await step('acs', () =>
      app.inject({ method: 'POST', url: `/v1/login/sso/saml/${engineCode}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ SAMLResponse: answer }).toString() }),
    );
    const code = new URL(consumed.headers.location as string, SITE).searchParams.get('saml')!;
    const redeemed = await step('redeem', () => app.inject({ method: 'GET', url: '/v1/login/sso', query: { saml: code, key: browserKey } }));
    if (!redeemed.json().successful) throw new Error(redeemed.body);
  }

  // node-saml's check alone, on the same answers (InResponseTo and the flow rows left out).
  const acsUrl = `${SITE}/v1/login/sso/saml/${engineCode}/acs`;
  const saml = new SAML({ issuer: spEntityId, callbackUrl: acsUrl, idpCert: idp.cert, audience: spEntityId, wantAssertionsSigned: true, wantAuthnResponseSigned: false, validateInResponseTo: ValidateInResponseTo.never, acceptedClockSkewMs: 60_000 });
  const check: number[] = [];
  for (const answer of answers) {
    const cpu = process.cpuUsage();
    await saml.validatePostResponseAsync({ SAMLResponse: answer });
    check.push(cpuMs(cpu));
  }
  const figures = {
    rounds: ROUNDS,
    loadAverage: os.loadavg().map((n) => round2(n)),
    statements: counts,
    cpuMsMedian: { start: round2(median(phases.start)), acs: round2(median(phases.acs)), redeem: round2(median(phases.redeem)), libraryCheck: round2(median(check)) },
    responseBytes: Buffer.from(answers[0]!, 'base64').length,
  };
  console.log(JSON.stringify(saveResult('saml', figures), null, 2));
} finally {
  await idp.close();
  await app.close();
  await database.close();
}
