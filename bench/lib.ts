import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { buildApp } from '../packages/server/src/app.ts';

export type App = Awaited<ReturnType<typeof buildApp>>;

/** A POST through the app's inject (no network); answers `data`, throws on an error answer. */
export async function post(app: App, url: string, body: unknown, headers: Record<string, string>) {
  const res = await app.inject({ method: 'POST', url, headers, payload: body as object });
  const json = res.json() as { successful: boolean; data: any };
  if (!json.successful) throw new Error(`${url}: ${JSON.stringify(json).slice(0, 500)}`);
  return json.data;
}

/**
 * Runs `measure` against a throw-away PostgreSQL database on BENCH_DATABASE_URL (default: the machine's server) and
 * drops it afterwards; answers undefined, with a warning, when no server can be reached.
 */
export async function onThrowawayPostgres<T>(prefix: string, measure: (url: string, version: string) => Promise<T>): Promise<T | undefined> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.warn('PostgreSQL run skipped:', (error as Error).message);
    return undefined;
  }
  const name = `${prefix}_${Date.now()}`;
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const version = ((await admin.query('show server_version')).rows[0].server_version as string).split(' ')[0];
    return await measure(url.toString(), version);
  } finally {
    // Let the measured pool finish closing: a forced drop would otherwise kill its connections mid-close.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // BENCH_KEEP_DATABASE keeps the database for reading its statements directly (psql, EXPLAIN ANALYZE).
    if (process.env.BENCH_KEEP_DATABASE) console.warn(`kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes bench/results/<name>.json: the run's figures with the date and the machine; answers what it wrote. */
export function saveResult<T extends object>(name: string, figures: T) {
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const result = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, ...figures };
  writeFileSync(path.join(ROOT, `bench/results/${name}.json`), JSON.stringify(result, null, 2));
  return result;
}

/** Replaces the "## <heading>" section of docs/performance.md with `lines` (added at the end the first time). */
export function writePerformanceSection(heading: string, lines: string[]): void {
  const file = path.join(ROOT, 'docs/performance.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n\n';
  const section = lines.join('\n');
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`## ${escaped}\\n[\\s\\S]*?(?=\\n## |$)`);
  const next = pattern.test(current) ? current.replace(pattern, section.trimEnd() + '\n') : `${current.trimEnd()}\n\n${section}`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
  console.log(`\n${section}`);
}
