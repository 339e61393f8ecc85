import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { hashOf } from './oplog-chain.ts';

// The chain check (docs/decisions/0113): from the anchor (the hash of the last entry the retention sweep removed)
// every kept entry must follow the one before it by number and by hash, and hash to what it stores; the head must
// name the last one. Read in one repeatable-read snapshot, a page at a time.

const PAGE = 500;

export async function verifyChain(db: Db, engineCode: string): Promise<contracts.OplogVerifyResult> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, engineCode);
    const head = await edb.selectFrom('oplog_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const last = Number(head.last_seq);
    let expectedSeq = Number(head.anchor_seq) + 1;
    let expectedPrev = head.anchor_hash;
    let checked = 0;
    const broken = (seq: number, time: Date | null, reason: 'edited' | 'removed') => ({ valid: false, checked, broken: { seq, time: time ? new Date(time).toISOString() : null, reason } });
    for (;;) {
      const rows = await edb.selectFrom('oplog').selectAll().where('seq', '>=', expectedSeq).where('seq', '<=', last).orderBy('seq').limit(PAGE).execute();
      for (const row of rows) {
        const seq = Number(row.seq);
        if (seq !== expectedSeq) return broken(expectedSeq, null, 'removed');
        const content = {
          seq, time: new Date(row.time).toISOString(), userId: row.user_id, userName: row.user_name, kind: row.kind, action: row.action,
          objectId: row.object_id, objectName: row.object_name, before: row.before, after: row.after, requestId: row.request_id, ip: row.ip, prevHash: row.prev_hash,
        };
        if (row.prev_hash !== expectedPrev || hashOf(content) !== row.hash) return broken(seq, row.time, 'edited');
        checked += 1;
        expectedSeq = seq + 1;
        expectedPrev = row.hash;
      }
      if (rows.length < PAGE) break;
    }
    if (expectedSeq <= last || expectedPrev !== head.last_hash) return broken(expectedSeq <= last ? expectedSeq : last, null, 'removed');
    return { valid: true, checked, broken: null };
  });
}
