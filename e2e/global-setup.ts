import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type {} from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../packages/server/src/lib/chromium-args.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    browserEndpoint: string;
  }
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const E2E_CODE = '246810';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts the platform exactly as the README does (`npm start`), on a fresh data folder. */
export function startPlatform(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    // Password hashes at scrypt's cost 2^10: the scenarios register many people (README, TRITIUM_SCRYPT_N).
    env: { ...process.env, LOG_LEVEL: 'warn', TRITIUM_SCRYPT_N: '1024', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`platform exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`platform did not answer ${url} within ${timeoutMs} ms:\n${output}`);
}

/** One platform and one browser for every browser scenario of the run (the built app is shared). */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium fonts-wqy-microhei (see README)`);
  }
  // TRITIUM_WEB_DIST lets a run use a build of its own (several working copies of the app can be tested at once).
  const webDist = process.env.TRITIUM_WEB_DIST ?? path.join(ROOT, 'packages/web/dist');
  if (!existsSync(path.join(webDist, 'index.html'))) throw new Error('the web app is not built: run npm test, or npm run build');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-e2e-'));
  const port = await freePort();
  const child = startPlatform({
    PORT: String(port),
    HOST: '127.0.0.1',
    TRITIUM_DATA_DIR: dataDir,
    TRITIUM_WEB_DIST: webDist,
    TRITIUM_FIXED_VERIFY_CODE: E2E_CODE,
    // One platform serves every scenario from one address: the per-address code-send limit (10 a minute) would refuse
    // the run's registrations. The limits are proven by the server suite (access-counters, rate-limit tests).
    TRITIUM_RATE_LIMIT: 'off',
    // Scenarios point robots and HTTP steps at local fakes: let outside requests reach loopback (docs/decisions/0072).
    TRITIUM_OUTBOUND_PRIVATE: 'allow',
    TRITIUM_COPY_BATCH_SIZE: '2',
    TRITIUM_COPY_BATCH_DELAY_MS: '250',
    // No network here: the map draws no tiles.
    TRITIUM_MAP_TILE_URL: '',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // Chromium starts while the platform does; scenarios connect to it and each opens contexts of its own.
  // The platform's first start (initdb and migrations) is slow on a loaded machine: a generous limit, not a sleep.
  const [launched, started] = await Promise.allSettled([
    // The platform's switches (chromium-args.ts): no address-bar popup in each context's window.
    chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] }),
    waitForHttp(`${baseUrl}/v1/register/getscalelist`, child, 240_000),
  ]);
  if (launched.status === 'rejected' || started.status === 'rejected') {
    // Leave nothing running behind a failed start (a live browser or platform would keep the run from ending).
    if (launched.status === 'fulfilled') await launched.value.close();
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    throw launched.status === 'rejected' ? launched.reason : (started as PromiseRejectedResult).reason;
  }
  const browserServer = launched.value;
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('browserEndpoint', browserServer.wsEndpoint());
  return async () => {
    await browserServer.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
