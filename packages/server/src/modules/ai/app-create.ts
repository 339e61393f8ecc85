import { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { canCreateApp } from '../function-node/function-node.policy.ts';
import { createNode, removeNode } from '../function-node/function-node.service.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { loadDesign, publishDesign, saveDesign } from '../form-design/form-design.service.ts';
import { designerLoad, saveViews } from '../view/view-settings.service.ts';
import { publishTemplate, saveTemplate } from '../workflow/workflow.service.ts';
import { saveBoard } from '../report/board.service.ts';
import { chatComplete, type AiDeps } from './ai-client.ts';
import { PROPOSABLE_TYPES, checkProposal, proposalJsonSchema, rolesByName, type CheckedForm } from './app-proposal.ts';

// An app from a description (docs/decisions/0126): the chat model proposes (structured output against the registry's
// schema), the server checks the proposal and answers it for the person to edit; creating it goes through the very
// services the designers call — the node tree's create, the form designer's save and publish, the view designer's
// save, the workflow designer's save and publish, the dashboard's save — so it is held to everything they check. A
// proposal that fails a check is refused before anything is stored; a step that still fails takes the app away again.

const SYSTEM_PROMPT = [
  '你是低代码平台的应用设计助手。根据用户对业务的描述，设计一个应用，按给定的 JSON 结构输出。',
  '每个表单的字段只能使用给出的控件类型（type），字段的名称写在 options.displayName，必填写 options.required=true，',
  '单选、多选、下拉的选项写在 options.defaultItems（字符串数组）。字段编码用英文字母开头的驼峰英文（如 Customer、VisitTime）。',
  '人员用 user，部门用 department，照片用 photo，附件用 attachment，日期时间用 dateTime，金额和数量用 number。',
  '每个表单给出列表要显示的字段编码 listColumns。需要审批的表单给出 workflow：审批节点名称和审批人（发起人的部门主管，或已有角色）；不需要审批则为 null。',
  '再设计一个仪表盘（dashboard），含一到两个图表：按某个字段分组计数或对数字字段求和；没有合适的统计则为 null。',
  '只输出 JSON，不要解释。',
].join('\n');

/** May this person create apps (Administrators and AppCreators)? Asked before a model is called or anything stored. */
async function assertAppCreator(ctx: NodeContext): Promise<void> {
  const edb = engineOf(ctx);
  if (!canCreateApp(await viewerOf(edb, ctx))) throw new AppError('AiAppCreateForbidden');
}

export const controlTypeChoices = () => PROPOSABLE_TYPES.map((t) => ({ key: t.key, name: t.displayName['zh-CN'] }));

/** Asks the chat model for a proposal and answers it once it passes the checks (nothing is stored). */
export async function proposeApp(deps: AiDeps, ctx: NodeContext, body: contracts.AppProposalBody): Promise<contracts.AppProposalResult> {
  await assertAppCreator(ctx);
  const edb = engineOf(ctx);
  const roles = await rolesByName(edb);
  const roleNames = [...roles.keys()];
  const answer = await chatComplete(
    deps,
    edb,
    { engineCode: ctx.engineCode, userId: ctx.userId, scene: 'appProposal' },
    [
      { role: 'system', content: `${SYSTEM_PROMPT}\n组织已有的角色：${roleNames.length ? roleNames.join('、') : '（无）'}` },
      { role: 'user', content: body.description },
    ],
    // Not strict: the registry's option schemas have optional settings, which strict structured outputs do not allow.
    { temperature: 0.2, responseFormat: { type: 'json_schema', json_schema: { name: 'app_proposal', strict: false, schema: proposalJsonSchema(roleNames) } } },
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.content);
  } catch {
    throw new AppError('AiProviderFailed', { detail: { message: '模型返回的内容不是应用方案' } });
  }
  checkProposal(parsed, roles);
  return { proposal: contracts.AppProposal.parse(parsed), controlTypes: controlTypeChoices(), roles: roleNames };
}

/** One form: its node, its design saved and published, its list view, its flow saved and published. */
async function createForm(ctx: NodeContext, appCode: string, form: CheckedForm): Promise<string> {
  const node = await createNode(ctx, { appCode, displayName: form.name, nodeType: form.template ? FunctionNodeType.WorkflowModule : FunctionNodeType.FormModule });
  const loaded = await loadDesign(ctx, node.code);
  const saved = await saveDesign(ctx, { schemaCode: node.code, baseVersion: loaded.draft.version, definition: form.definition });
  await publishDesign(ctx, { schemaCode: node.code, version: saved.version, confirm: [], dryRun: false });
  // The list view: the form's default view (its filters, quick search and buttons) with the proposed columns.
  const { views } = await designerLoad(ctx, node.code);
  const base = views[0]!;
  const columns = form.listColumns.length ? form.listColumns.map((field) => ({ field })) : base.columns;
  await saveViews(ctx, { schemaCode: node.code, views: [contracts.ViewSetting.parse({ ...base, columns })] }, new Date());
  if (form.template) {
    await saveTemplate(ctx, { schemaCode: node.code, template: form.template });
    await publishTemplate(ctx, { schemaCode: node.code });
  }
  return node.code;
}

/** Creates the (edited) proposal through the designers' services; refused whole before anything is stored. */
export async function createAppFromProposal(ctx: NodeContext, body: contracts.AppCreateBody): Promise<contracts.AppCreateResult> {
  await assertAppCreator(ctx);
  const roles = await rolesByName(engineOf(ctx));
  const checked = checkProposal(body.proposal, roles);
  const app = await createNode(ctx, { displayName: checked.appName, nodeType: FunctionNodeType.AppPackage });
  try {
    const forms: contracts.AppCreateResult['forms'] = [];
    for (const form of checked.forms) forms.push({ schemaCode: await createForm(ctx, app.code, form), name: form.name, workflow: !!form.template });
    let dashboardCode: string | null = null;
    if (body.proposal.dashboard) {
      // The widgets again, now with the forms' codes.
      const board = checkProposal(body.proposal, roles, forms.map((f) => f.schemaCode)).dashboard!;
      const node = await createNode(ctx, { appCode: app.code, displayName: board.name, nodeType: FunctionNodeType.DashBoardModule });
      await saveBoard(ctx, { code: node.code, definition: board.board });
      dashboardCode = node.code;
    }
    return { appCode: app.code, forms, dashboardCode };
  } catch (error) {
    // A step the checks did not foresee failed: the half-made app goes, forms and all.
    await removeNode(ctx, app.code).catch(() => undefined);
    throw error;
  }
}
