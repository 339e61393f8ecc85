/**
 * The statements of work a call runs, through the database's onQuery hook: pass `onQuery` to openTestDatabase, then
 * `of(call)`. Transaction control is not a statement of work (the PostgreSQL driver reports BEGIN/COMMIT, PGlite's
 * does not).
 */
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
