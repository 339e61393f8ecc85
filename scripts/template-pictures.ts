/**
 * Pictures of the built-in templates' screens (issue 46; docs/decisions/0131, 0132): each built-in the market lists is
 * installed with its sample data into one scratch organisation of a running platform, two of its main screens are
 * photographed at 1280×800 (JPEG, quality 70) into packages/server/templates/pictures/<code>-<n>.jpg, and the
 * template's manifest `<code>.template.json` is given their names (its `pictures` field). The market's detail drawer
 * shows them through GET /v1/template/picture once the platform starts again (the registry refreshes a manifest's
 * words and pictures at start).
 *
 * It starts no platform: give it the address of one started on a scratch data folder with a fixed verification code,
 *
 *   TRITIUM_DATA_DIR=$(mktemp -d) TRITIUM_FIXED_VERIFY_CODE=246810 PORT=3901 npm start
 *   npm run templates:pictures -- --url http://127.0.0.1:3901 --verify-code 246810 [code …]
 *
 * or a session of an administrator who may create apps: `--token <access token> --engine <engine code>` instead of
 * `--verify-code`. Codes limit it to those templates (default: every built-in). `--dry-run` writes no manifest.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../packages/server/src/lib/chromium-args.ts';

const TEMPLATES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/server/templates');
const PICTURES = 'pictures';
const VIEWPORT = { width: 1280, height: 800 };
const QUALITY = 70;
/**
 * The screens photographed for each built-in, by the names of the app's nodes (its view when a form has several):
 * the list of the main form, then its dashboard or Gantt chart. An unknown template: its first form, its first board.
 */
const SCREENS: Record<string, string[]> = {
  'leave-request': ['请假申请', '请假统计'],
  'expense-claim': ['报销单', '费用统计'],
  crm: ['客户', '销售看板'],
  inventory: ['商品', '进销存看板'],
  project: ['任务', '项目看板'],
  'purchase-request': ['采购申请', '采购统计'],
};

interface Session { token: string; engineCode: string }
type Node = { code: string; displayName: string; nodeType: number };

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, 'verify-code': { type: 'string' }, token: { type: 'string' }, engine: { type: 'string' }, 'dry-run': { type: 'boolean' } },
});

async function call<T>(base: string, who: Session | null, method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(who ? { Authorization: `Bearer ${who.token}`, EngineCode: who.engineCode } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { successful: boolean; data: T; errorMessage?: string };
  if (!json.successful) throw new Error(`${method} ${url}: ${json.errorMessage ?? response.status}`);
  return json.data;
}

/** A scratch organisation registered with the platform's fixed verification code, or the session given. */
async function session(base: string): Promise<Session> {
  if (args.token && args.engine) return { token: args.token, engineCode: args.engine };
  const code = args['verify-code'];
  if (!code) throw new Error('give --verify-code (a platform started with TRITIUM_FIXED_VERIFY_CODE) or --token and --engine');
  const mobile = `199${String(Date.now() + Math.floor(Math.random() * 1000)).slice(-8)}`;
  await fetch(`${base}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'register' }) });
  const registered = await call<{ accessToken: string; engineCode: string }>(base, null, 'POST', '/v1/register/engine', {
    mobile, code, password: 'Pictures2026', userName: '周明', engineName: '模板示例有限公司', scale: '21-50',
  });
  return { token: registered.accessToken, engineCode: registered.engineCode };
}

/** Installs a template with its sample data and waits for the job: answers the new app's code. */
async function install(base: string, who: Session, templateId: string): Promise<string> {
  const { actionId } = await call<{ actionId: string }>(base, who, 'POST', '/v1/template/install', { templateId, withSampleData: true });
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    const job = await call<{ state: string; isComplete: boolean; appCode: string | null; message: string | null }>(base, who, 'GET', `/v1/template/install/progress?actionId=${encodeURIComponent(actionId)}`);
    if (job.isComplete && job.appCode) return job.appCode;
    if (['Failed', 'Canceled', 'Timeout'].includes(job.state)) throw new Error(`install ended ${job.state}: ${job.message ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('install did not finish within 120 s');
}

/** Waits until a screen has drawn its data: a list's rows, a board's charts, a Gantt chart's tasks. */
async function settled(page: Page) {
  const ready = page
    .locator('.ant-table-row')
    .or(page.locator('[data-widget] canvas, [data-widget] svg'))
    .or(page.getByRole('region', { name: '甘特图' }).getByRole('listitem'))
    .first();
  await ready.waitFor({ timeout: 30_000 });
  // The page keeps a connection open for its live updates, so "no network" never comes: no spinner left is the sign.
  const loading = page.locator('.ant-spin-spinning, .ant-skeleton-active');
  for (let started = Date.now(); (await loading.count()) > 0 && Date.now() - started < 15_000; ) await page.waitForTimeout(100);
  // Charts draw with a short animation; a picture taken at once catches bars half-grown.
  await page.waitForTimeout(1200);
}

async function main() {
  const base = args.url?.replace(/\/$/, '');
  if (!base) throw new Error('give --url of a running platform (see the comment at the top of this file)');
  const first = await session(base);
  const listed = await call<{ list: { id: string; code: string; name: string }[] }>(base, first, 'GET', '/v1/template/list?source=builtIn&pageSize=100');
  const templates = positionals.length ? listed.list.filter((t) => positionals.includes(t.code)) : listed.list;
  if (!templates.length) throw new Error(`no built-in templates to photograph (listed: ${listed.list.map((t) => t.code).join(', ') || 'none'})`);
  mkdirSync(path.join(TEMPLATES, PICTURES), { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });
  let failed = 0;
  try {
    for (const [n, template] of templates.entries()) {
      const started = performance.now();
      // An organisation of its own for each (registered anew when a verification code is given): its pictures show
      // its app alone in the app list.
      const who = n === 0 ? first : await session(base);
      const context = await browser.newContext({ baseURL: base, viewport: VIEWPORT, locale: 'zh-CN' });
      try {
        await context.addCookies([{ name: 'access-token', value: who.token, url: base }, { name: 'engine', value: who.engineCode, url: base }]);
        const page = await context.newPage();
        const appCode = await install(base, who, template.id);
        const nodes = (await call<{ list: Node[] }>(base, who, 'GET', `/v1/functionNode/app/feature/list?appCode=${encodeURIComponent(appCode)}`)).list;
        const wanted = SCREENS[template.code] ?? [];
        const screens = wanted.length
          ? wanted.map((name) => nodes.find((x) => x.displayName === name) ?? fail(`${template.code}: no node named ${name}`))
          : [nodes.find((x) => x.nodeType === 200 || x.nodeType === 210), nodes.find((x) => x.nodeType === 270)].filter((x): x is Node => !!x);
        const files: string[] = [];
        for (const [i, node] of screens.entries()) {
          await page.goto(`/workbench/app/${encodeURIComponent(appCode)}/${encodeURIComponent(node.code)}`);
          await settled(page);
          const file = `${PICTURES}/${template.code}-${i + 1}.jpg`;
          await page.screenshot({ path: path.join(TEMPLATES, file), type: 'jpeg', quality: QUALITY });
          files.push(file);
        }
        if (!args['dry-run']) setPictures(template.code, files);
        console.log(`${template.name} (${template.code}): ${files.join(', ')} in ${Math.round(performance.now() - started)} ms`);
      } catch (error) {
        failed += 1;
        console.error(`${template.name} (${template.code}): ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  if (failed) process.exitCode = 1;
}

function fail(message: string): never {
  throw new Error(message);
}

/** Names the pictures in the template's manifest, keeping every other field as it is. */
function setPictures(code: string, files: string[]) {
  const file = path.join(TEMPLATES, `${code}.template.json`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...manifest, pictures: files }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
