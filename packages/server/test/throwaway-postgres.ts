import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../e2e/global-setup.ts';

// A PostgreSQL 15 cluster of the test's own (stack.md "PostgreSQL for tests"), for tests that stop and restart the
// database under a running server. It runs as the postgres user (the server refuses root) on a free loopback port,
// in a temp folder removed afterwards.

const run = promisify(execFile);
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Why a throw-away cluster cannot be made here, or undefined when it can. */
export function throwawayPostgresUnavailable(): string | undefined {
  if (!existsSync(path.join(PG_BIN, 'initdb')) || !existsSync(path.join(PG_BIN, 'pg_ctl'))) return `PostgreSQL binaries not found in ${PG_BIN}`;
  return undefined;
}

export interface ThrowawayPostgres {
  url: string;
  port: number;
  /** pg_ctl stop: `fast` ends sessions cleanly (57P01), `immediate` as a crash would (recovery at the next start). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** Stops the cluster (if running) and removes its folder. */
  destroy(): Promise<void>;
}

const asPostgres = (command: string) => (process.getuid?.() === 0 ? run('su', ['postgres', '-c', command]) : run('sh', ['-c', command]));

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-pg-'));
  if (process.getuid?.() === 0) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  const data = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres(`${PG_BIN}/initdb -D ${data} -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync`);
  const ctl = (args: string) => asPostgres(`${PG_BIN}/pg_ctl -D ${data} -l ${dir}/log ${args}`);
  const options = `-o '-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}'`;
  await ctl(`${options} -w start`);
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop(mode) {
      await ctl(`-m ${mode} -w stop`);
      running = false;
    },
    async start() {
      await ctl(`${options} -w start`);
      running = true;
    },
    async restart(mode) {
      await ctl(`${options} -m ${mode} -w restart`);
      running = true;
    },
    async destroy() {
      if (running) await ctl('-m immediate -w stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
