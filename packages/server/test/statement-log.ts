import { createTestApp, openTestDatabase, registerPerson } from './helpers.ts';
import { createApp, nodeClient } from './node-helpers.ts';

/**
 * The statements of work a call runs, through the database's onQuery hook: pass `onQuery` to openTestDatabase, then
 * `of(call)`. Transaction control is not a statement of work (the PostgreSQL driver reports BEGIN/COMMIT, PGlite's
 * does not).
 */
export type StatementLog = ReturnType<typeof statementLog>;

export function statementLog() {
  let counting: string[] | null = null;
  return {
    onQuery(sql: string) {
      if (!/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(sql)) counting?.push(sql);
    },
    async of(action: () => Promise<unknown>): Promise<string[]> {
      const seen: string[] = [];
      counting = seen;
      try {
        await action();
        return seen;
      } finally {
        counting = null;
      }
    },
  };
}

/** A test app whose statements are logged, with a registered Administrator, their client and an app of theirs. */
export async function appWithStatementLog() {
  const log = statementLog();
  const t = await createTestApp({ database: await openTestDatabase({ onQuery: log.onQuery }) });
  const admin = await registerPerson(t.app);
  const a = nodeClient(t.app, admin);
  return { log, t, admin, a, appCode: (await createApp(a)).code };
}
