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
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
