import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { appWithStatementLog, type StatementLog } from '../../../test/statement-log.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';

// What one automation run costs in statements (issue 21's runs-per-second goal; docs/decisions/0041), counted through
// the database's onQuery hook: a data-effective trigger with one update step. The bound keeps the count from growing
// back silently.

let t: TestApp, a: OrgClient, appCode: string, log: StatementLog;
beforeAll(async () => ({ log, t, a, appCode } = await appWithStatementLog()));
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('automation run statements', () => {
  it('a run with one update step, and ten runs together', async () => {
    const order = (await createForm(a, appCode)).code as string;
    const stock = (await createForm(a, appCode)).code as string;
    await publish(a, order, definition([{ type: 'textBox', code: 'Product' }, { type: 'number', code: 'Qty' }]));
    await publish(a, stock, definition([{ type: 'textBox', code: 'Product' }, { type: 'number', code: 'Qty' }]));
    await a.post('/v1/form/action/execute', { schemaCode: stock, actionCode: 'Submit', values: { Product: 'P', Qty: 100 } });
    await a.post('/v1/automatic/save', {
      schemaCode: order,
      automation: { name: '扣库存', trigger: { type: 'effective' }, steps: [{ id: 'u', type: 'update', targetSchemaCode: stock, match: [{ field: 'Product', value: { type: 'field', code: 'Product' } }], mappings: [{ field: 'Qty', op: 'subtract', value: { type: 'field', code: 'Qty' } }] }] },
    });
    const runs = async () => {
      await a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Submit', values: { Product: 'P', Qty: 1 } });
      return log.of(async () => {
        while (await t.app.extras.jobs.runOnce());
      });
    };
    await runs();
    const seen = await runs();
    // 10 for the run, in three commits: the job's claim (1); the run with its automation and its owner's standing
    // (1), read; then one transaction — the run's claim (1), the trigger record (1), the matching stock record (1),
    // its save (lock, update, data log: 3), the run's outcome (1) —; the job's end (1); and the runner's last, empty
    // claim. Forms, nodes, grants, the form's automations and the rollups that read the stock come from the caches
    // (the second run finds them warm).
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(11);

    // Ten runs queued together share one claim and one transaction: per run the match (which locks the stock record,
    // so the save does not read it again), its update and its data log (3); per batch the claim, the read, the runs'
    // claim, their trigger records (one read), their outcomes, the jobs' end, BEGIN/COMMIT and the last empty claim.
    await Promise.all(Array.from({ length: 10 }, () => a.post('/v1/form/action/execute', { schemaCode: order, actionCode: 'Submit', values: { Product: 'P', Qty: 1 } })));
    const batch = await log.of(async () => {
      while (await t.app.extras.jobs.runOnce());
    });
    expect(batch.length, batch.join('\n')).toBeLessThanOrEqual(10 * 3 + 8);
    const left = await a.post('/v1/bizdata/query', { schemaCode: stock, pageIndex: 0, pageSize: 10 });
    expect((left.list as { Qty: number }[])[0]!.Qty).toBe(100 - 12);
  });
});
