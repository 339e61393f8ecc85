import type { contracts } from '@tritium/shared';
import { FormDefinition } from '@tritium/shared/contracts/form-design/index';
import { fail, json, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

type SchemaChange = contracts.SchemaChange;
type ControlReference = { kind: string; schemaCode: string; name: string; detail?: string };

/** A lead form with a text box, a drop-down, a creator and a sub-table of one column. */
export const leadDefinition = () =>
  FormDefinition.parse({
    attributes: { displayName: '线索登记' },
    controls: [
      { type: 'textBox', code: 'F0001', options: { displayName: '客户名称', required: true } },
      { type: 'dropDown', code: 'F0002', options: { displayName: '来源', defaultItems: ['展会', '官网'] } },
      { type: 'creator', code: 'CreatedBy' },
      { type: 'gridView', code: 'F0003', options: { displayName: '联系人' }, controls: [{ type: 'textBox', code: 'F0001', options: { displayName: '姓名' } }] },
    ],
  });

interface FakeOptions {
  version?: number;
  /** Answers of publish in order; the last repeats. A list of changes is a refusal asking to confirm them; a summary is a publish that changed those fields. */
  publishScript?: ({ changes: SchemaChange[] } | { summary: contracts.PublishSummary } | 'ok')[];
  references?: ControlReference[];
  /** The version someone else saved meanwhile: the next save is refused as stale. */
  staleAt?: number;
  loadError?: { status: number; code: number; message: string };
  /** The draft to load instead of the lead form. */
  definition?: unknown;
  /** The answer of checktreestructure (valid, no rows, by default). */
  treeCheck?: Record<string, unknown>;
}

const formNode = (code: string, displayName: string, nodeType: number) => ({ code, objectId: `o-${code}`, parentCode: 'crm', appCode: 'crm', displayName, icon: '', iconColor: '', nodeType, summary: '', appState: 'Normal', source: 'Own', state: 'Normal', url: null, sortKey: 0, permission: 'administrator' });

/** The form-design calls over one form (schemaCode "f_lead"), with what a save or publish sent. */
export function stubDesigner(options: FakeOptions = {}) {
  let version = options.version ?? 3;
  let publishIndex = 0;
  const saved: RecordedCall[] = [];
  const script = options.publishScript ?? ['ok'];
  const stub = stubFetch({
    'POST /v1/formdesign/load': () => {
      if (options.loadError) return fail(options.loadError.code, options.loadError.message, {}, options.loadError.status);
      const definition = options.definition ? FormDefinition.parse(options.definition) : leadDefinition();
      return ok({
        schemaCode: 'f_lead',
        appCode: 'crm',
        nodeType: 200,
        draft: { definition, version, savedTime: '2026-11-20T08:00:00.000Z' },
        published: { definition, version, savedTime: '2026-11-20T08:00:00.000Z', publishedTime: '2026-11-20T08:00:00.000Z' },
        hasUnpublishedChanges: false,
      });
    },
    'POST /v1/formdesign/save': (call) => {
      saved.push(call);
      if (options.staleAt !== undefined) return fail(240002, '表单已被修改，请重新加载后再操作', { detail: { baseVersion: version, currentVersion: options.staleAt } });
      version += 1;
      return ok({ version, savedTime: '2026-11-21T08:00:00.000Z' });
    },
    'POST /v1/formdesign/publish': () => {
      const answer = script[Math.min(publishIndex, script.length - 1)];
      publishIndex += 1;
      if (answer === 'ok' || 'summary' in answer) {
        const summary = answer === 'ok' ? { added: [], removed: [], changed: [] } : answer.summary;
        return ok({ publishedVersion: version, publishedTime: '2026-11-21T09:00:00.000Z', changes: [], summary, applied: true });
      }
      return json({
        successful: false,
        errorCode: 240003,
        errorMessage: '发布会删除或无法转换已有数据，请确认后再发布',
        errorType: 'BIZ',
        detail: { changes: answer.changes, unconfirmed: answer.changes.filter((c) => c.needsConfirmation).map((c) => c.key) },
      });
    },
    // Forms to associate with: this app's, and the engine's by keyword.
    'GET /v1/functionNode/app/feature/list': () => ok({ list: [formNode('f_lead', '线索登记', 200), formNode('f_customer', '客户档案', 200), formNode('r_sales', '销售报表', 220)], defaultSchemaCode: 'f_lead' }),
    'POST /v1/functionnode/list/bykeyword': () => ok({ list: [formNode('f_contract', '合同', 210)] }),
    'POST /v1/formdesign/checkreference': () => ok({ references: options.references ?? [] }),
    'POST /v1/formdesign/checktreestructure': () => ok(options.treeCheck ?? { valid: true, records: 0, levels: 0 }),
  });
  return { ...stub, saved };
}
