import { WorkflowTemplate } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Finished instances for records that come in already effective (docs/decisions/0020: an Effective import into a
// workflow form). Each record gets an instance that went Start → End at once: Finished and approved, the start node
// submitted by the importer, a log entry "导入生效". Written as multi-row inserts for a whole batch, in the caller's
// transaction; no reminders and no business rules here (the caller runs the rules as a save does).

export interface ImportedRecord {
  objectId: string;
  name: string;
}

export interface FinishedInstanceTemplate {
  version: number;
  start: string;
  end: string;
}

/** The form's latest published template, reduced to what a finished instance names (undefined: none published). */
export async function finishedInstanceTemplate(edb: EngineExecutor, schemaCode: string): Promise<FinishedInstanceTemplate | undefined> {
  const row = await edb.selectFrom('wf_templates').select(['version', 'definition']).where('schema_code', '=', schemaCode).orderBy('version', 'desc').limit(1).executeTakeFirst();
  if (!row) return undefined;
  const template = WorkflowTemplate.parse(row.definition);
  const start = template.activities.find((a) => a.type === 'Start');
  const end = template.activities.find((a) => a.type === 'End');
  if (!start || !end) throw new AppError('WorkflowTemplateInvalid', { detail: { issues: [{ rule: 'oneStart' }] } });
  return { version: row.version, start: start.code, end: end.code };
}

const CHUNK = 500;

/**
 * Writes one finished, approved instance per record (originator: the importer) and answers record → instance id.
 * The records' own rows (Status Effective, WorkflowInstanceId) are the caller's to write.
 */
export async function writeFinishedInstances(
  edb: EngineExecutor,
  schemaCode: string,
  template: FinishedInstanceTemplate,
  records: readonly ImportedRecord[],
  originator: string,
  now: Date,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let at = 0; at < records.length; at += CHUNK) {
    const part = records.slice(at, at + CHUNK);
    const instances = [];
    const tokens = [];
    const items = [];
    const comments = [];
    for (const r of part) {
      const id = newId();
      const startToken = newId();
      const endToken = newId();
      const item = newId();
      out.set(r.objectId, id);
      instances.push({
        id, schema_code: schemaCode, object_id: r.objectId, template_version: template.version, originator, name: r.name.slice(0, 200),
        state: 'Finished', approval: 1, parent_instance_id: null, parent_token_id: null, next_seq: 3, created_time: now, modified_time: now, finished_time: now,
      });
      const token = { instance_id: id, state: 'Finished', approval: 1, retrievable: false, action_event: null, skipped: false, created_time: now, finished_time: now };
      tokens.push(
        { ...token, id: startToken, seq: 1, activity_code: template.start, participants: JSON.stringify([originator]), item_count: 1, agree_count: 1, disagree_count: 0, pre_tokens: '[]' },
        { ...token, id: endToken, seq: 2, activity_code: template.end, participants: '[]', item_count: 0, agree_count: 0, disagree_count: 0, pre_tokens: JSON.stringify([startToken]) },
      );
      items.push({
        id: item, instance_id: id, token_id: startToken, activity_code: template.start, item_type: 'fill', kind: 'normal', participant: originator, finisher: originator,
        delegant: null, source_item_id: null, state: 'Finished', approval: 1, action_event: null, urged: false, sort: 0, created_time: now, finished_time: now,
      });
      comments.push({
        id: newId(), instance_id: id, token_id: startToken, work_item_id: item, activity_code: template.start, user_id: originator, action: 'import',
        text: '导入生效', approval: 1, signature: null, attachment_ids: '[]', receivers: '[]', created_time: now,
      });
    }
    await edb.insertInto('wf_instances').values(instances).execute();
    await edb.insertInto('wf_tokens').values(tokens).execute();
    await edb.insertInto('wf_work_items').values(items).execute();
    await edb.insertInto('wf_comments').values(comments).execute();
  }
  return out;
}
