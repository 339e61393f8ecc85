import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeIssue, fieldIssue, findBadInput } from '@tritium/shared';
import { parameterError } from '../lib/app-error.ts';

// The edge every route passes (docs/decisions/0028): after the body is parsed and before any schema or handler
// runs, the body, query and path parameters are searched for text the database cannot store (U+0000, an unpaired
// surrogate) — inside JSON carried in strings too, where the open-API and legacy adapters parse it — and for
// nesting deeper than any contract needs. Such a request gets a 777 naming the field; nothing reaches SQL.

/** Deeper than any form definition, filter or flow chart the platform accepts; 10,000 levels are refused here. */
export const MAX_INPUT_DEPTH = 64;

export function registerInputEdge(app: FastifyInstance): void {
  // Zod's default texts in zh-CN from the shared templates; an English caller gets them translated by the error handler.
  z.config({ localeError: (issue) => describeIssue(issue as never) });

  app.addHook('preValidation', async (request) => {
    const parts = [
      ['body', request.body],
      ['query', request.query],
      ['params', request.params],
    ] as const;
    for (const [place, value] of parts) {
      const bad = findBadInput(value, { maxDepth: MAX_INPUT_DEPTH, readJsonStrings: true });
      if (!bad) continue;
      // Too deep: the top-level field that holds the nesting (the full path would be as long as the nesting).
      const path = (bad.reason === 'nestedTooDeep' ? bad.path.split('.')[0] : bad.path) || place;
      const issue = bad.reason === 'nestedTooDeep' ? fieldIssue(path, undefined, 'nestedTooDeep', { max: MAX_INPUT_DEPTH }) : fieldIssue(path, undefined, bad.reason);
      throw parameterError([issue]);
    }
  });
}
