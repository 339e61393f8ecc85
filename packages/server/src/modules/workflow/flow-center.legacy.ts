import { z } from 'zod';
import { contracts, ERRORS } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { legacyFailure, legacyParseFailure, legacySuccess, postDataOf, type LegacyEnvelope } from '../../lib/legacy-envelope.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { listTab } from './flow-center.service.ts';
import { rapidApprove } from './flow-center.rapid.ts';
import { todosCount, unfinishedCount } from './workflow.service.ts';

// The legacy home calls (calls.md §7: "Legacy home list and rapid approval through /Home/OnAction; default
// rapid-approval status is '0'"): a form body `PostData=<json>` with an ActionName, answered in the legacy envelope
// `{Successful, ErrorMessage, ErrorCode, Logined, ReturnData, DataType}` (h3yun-facts §1.3): a failure is
// Successful:false, not an HTTP error. A thin adapter over the flow center (docs/decisions/0019).

const success = legacySuccess;
const failure = legacyFailure;

const Num = z.coerce.number().int();
/** A list of ids as an array or as the legacy "id1;id2" text. */
const IdList = z.preprocess((v) => (typeof v === 'string' ? v.split(/[;,]/).map((s) => s.trim()).filter(Boolean) : v), z.array(z.string()));
// WorkItemState numbers (h3yun-facts §2.3): 0 等待中 stands for every open item, 2 已完成 for handled ones.
const RapidStatus = z.preprocess((v) => (v === undefined || v === null || v === '' ? '0' : String(v)), z.enum(['0', '2']));

const Actions = z.discriminatedUnion('ActionName', [
  z.object({
    ActionName: z.literal('LoadWorkItems'),
    Type: z.enum(contracts.FLOW_CENTER_TABS).default('todo'),
    PageIndex: Num.min(0).default(0),
    PageSize: Num.min(1).max(100).default(20),
    Keyword: z.string().max(100).optional(),
    SchemaCode: z.string().max(64).optional(),
    ReadState: z.enum(['unread', 'read', 'all']).default('unread'),
  }),
  z.object({ ActionName: z.literal('LoadWorkItemCount') }),
  z.object({
    ActionName: z.literal('LoadRapidApprovalItems'),
    Status: RapidStatus,
    PageIndex: Num.min(0).default(0),
    PageSize: Num.min(1).max(100).default(20),
  }),
  z.object({ ActionName: z.literal('RapidApprove'), WorkItemIds: IdList, Comment: z.string().max(2000).optional() }),
]);

function pascalRow(r: contracts.FlowCenterRow) {
  return {
    WorkItemId: r.workItemId,
    InstanceId: r.instanceId,
    SchemaCode: r.schemaCode,
    BizObjectId: r.objectId,
    InstanceName: r.instanceName,
    DisplayName: r.formName,
    Originator: r.originator,
    OriginatorName: r.originatorName,
    State: r.itemState ?? r.instanceState,
    InstanceState: r.instanceState,
    ItemType: r.itemType,
    ActivityCode: r.activityCode,
    ActivityDisplayName: r.activityName,
    CurrentActivities: r.currentActivities.map((a) => a.name),
    ReceiveTime: r.receivedTime,
    FinishTime: r.itemFinishedTime ?? r.finishedTime,
    Urged: r.urged,
  };
}

export async function homeOnAction(ctx: NodeContext, body: unknown): Promise<LegacyEnvelope> {
  const parsed = Actions.safeParse(postDataOf(body));
  if (!parsed.success) return legacyParseFailure(body, ['LoadWorkItems', 'LoadWorkItemCount', 'LoadRapidApprovalItems', 'RapidApprove'], parsed.error);
  const a = parsed.data;
  try {
    switch (a.ActionName) {
      case 'LoadWorkItems': {
        const page = await listTab(ctx, { tab: a.Type, pageIndex: a.PageIndex, pageSize: a.PageSize, keyword: a.Keyword?.trim() || undefined, schemaCode: a.SchemaCode || undefined, readState: a.ReadState, instanceState: 'all' });
        return success({ WorkItems: page.list.map(pascalRow), TotalCount: page.total ?? 0, HasMore: page.hasMore });
      }
      case 'LoadWorkItemCount': {
        const [counts, unfinished] = await Promise.all([todosCount(ctx), unfinishedCount(ctx)]);
        return success({ UnfinishedWorkItemCount: counts.todo, UnreadCirculateCount: counts.toRead, UnfinishedInstanceCount: unfinished.count });
      }
      case 'LoadRapidApprovalItems': {
        const tab = a.Status === '0' ? 'todo' : 'done';
        const page = await listTab(ctx, { tab, pageIndex: a.PageIndex, pageSize: a.PageSize, readState: 'unread', instanceState: 'all' }, { approveOnly: true });
        return success({ Status: a.Status, WorkItems: page.list.map(pascalRow), TotalCount: page.total ?? 0, HasMore: page.hasMore });
      }
      case 'RapidApprove': {
        const ids = contracts.RapidApproveBody.shape.workItemIds.safeParse(a.WorkItemIds);
        if (!ids.success) return failure(ERRORS.ParameterVerificationFailed.code, ERRORS.ParameterVerificationFailed.zh, { issues: ids.error.issues.map((i) => ({ path: ['WorkItemIds', ...i.path].join('.'), message: i.message })) });
        const out = await rapidApprove(ctx, { workItemIds: ids.data, opinion: a.Comment ? { text: a.Comment } : undefined });
        return success({
          SuccessCount: out.successCount,
          FailCount: out.failCount,
          Results: out.results.map((r) => ({ WorkItemId: r.workItemId, Successful: r.successful, ErrorCode: r.errorCode, ErrorMessage: r.errorMessage })),
        });
      }
    }
  } catch (e) {
    if (e instanceof AppError) return failure(e.code, e.message, e.detail);
    throw e;
  }
}
