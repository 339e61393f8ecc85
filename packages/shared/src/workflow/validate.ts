import { isParticipative, type Activity, type WorkflowTemplate } from './model.ts';

// The publish validator (shared/design/workflow.md "Publishing validates"; docs/decisions/0014): one Start, at least
// one End, every node reachable and able to reach an End, every participative node has a rule, every Condition has
// an else, every Join is fed by one Parallel. It answers every issue found, each naming its activity or route.

export interface TemplateIssue {
  rule: string;
  message: string;
  activity?: string;
}

export function validateTemplate(template: WorkflowTemplate): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  const add = (rule: string, message: string, activity?: string) => issues.push({ rule, message, ...(activity ? { activity } : {}) });
  const byCode = new Map<string, Activity>();
  for (const a of template.activities) {
    if (byCode.has(a.code)) add('duplicateCode', `节点编码 ${a.code} 重复`, a.code);
    byCode.set(a.code, a);
  }
  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  for (const a of template.activities) {
    out.set(a.code, []);
    into.set(a.code, []);
  }
  const seenRoutes = new Set<string>();
  for (const r of template.routes) {
    if (!byCode.has(r.from) || !byCode.has(r.to)) {
      add('routeUnknownNode', `连线 ${r.from} → ${r.to} 指向不存在的节点`);
      continue;
    }
    if (seenRoutes.has(`${r.from}>${r.to}`)) add('duplicateRoute', `连线 ${r.from} → ${r.to} 重复`, r.from);
    seenRoutes.add(`${r.from}>${r.to}`);
    if (r.from === r.to) add('selfRoute', `节点 ${r.from} 不能连向自己`, r.from);
    out.get(r.from)!.push(r.to);
    into.get(r.to)!.push(r.from);
  }

  const starts = template.activities.filter((a) => a.type === 'Start');
  const ends = template.activities.filter((a) => a.type === 'End');
  if (starts.length !== 1) add('oneStart', `流程须有且只有一个开始节点（现有 ${starts.length} 个）`);
  if (!ends.length) add('oneEnd', '流程至少须有一个结束节点');

  for (const a of template.activities) {
    const outs = out.get(a.code)!;
    const routes = template.routes.filter((r) => r.from === a.code);
    if (a.type === 'Start' && into.get(a.code)!.length) add('startHasInput', '开始节点不能有流入的连线', a.code);
    if (a.type === 'End' && outs.length) add('endHasOutput', '结束节点不能有流出的连线', a.code);
    if (a.type !== 'End' && !outs.length) add('noOutput', `节点 ${a.name} 没有流出的连线`, a.code);
    if (a.type === 'Condition') {
      const elses = routes.filter((r) => r.isElse).length;
      if (elses !== 1) add('conditionElse', `条件分支 ${a.name} 须有且只有一个 else 分支`, a.code);
      if (routes.some((r) => !r.isElse && !r.condition && !r.formula)) add('conditionMissing', `条件分支 ${a.name} 的非 else 分支须设置条件`, a.code);
    } else if (a.type === 'Parallel') {
      if (outs.length < 2) add('parallelBranches', `并行分支 ${a.name} 至少须有两条分支`, a.code);
      if (routes.some((r) => r.isElse)) add('parallelElse', `并行分支 ${a.name} 不能有 else 分支`, a.code);
    } else if (outs.length > 1) {
      add('singleOutput', `节点 ${a.name} 只能有一条流出的连线（分支请用条件或并行节点）`, a.code);
    }
    if (a.type !== 'Condition' && a.type !== 'Parallel' && routes.some((r) => r.condition || r.formula || r.isElse)) {
      add('conditionOutsideBranch', `只有条件分支和并行分支的连线可以设置条件`, a.code);
    }
    if (a.type === 'Join' && into.get(a.code)!.length < 2) add('joinInputs', `汇聚节点 ${a.name} 至少须有两条流入的连线`, a.code);
    if (isParticipative(a.type) || a.type === 'Circulate') {
      const rule = (a as { participants: { sources: unknown[] } }).participants;
      if (!rule.sources.length) add('participantsMissing', `节点 ${a.name} 没有设置参与者`, a.code);
    }
    if (a.type === 'ChildInstance' && !a.childSchemaCode) add('childFormMissing', `子流程 ${a.name} 没有选择子流程表单`, a.code);
    if (a.type === 'Fill' || a.type === 'Approve') {
      const target = a.disapproveTarget;
      if (target.type === 'activity') {
        const t = byCode.get(target.code);
        if (!t || !['Start', 'Fill', 'Approve', 'End'].includes(t.type)) add('disapproveTarget', `节点 ${a.name} 的驳回目标须是开始、经办、审批或结束节点`, a.code);
      }
      if (a.type === 'Fill' && a.timeLimit?.onTimeout === 'reject') add('timeLimit', `经办节点 ${a.name} 不能超时自动驳回（只有审批节点可以驳回）`, a.code);
      for (const code of Object.keys(a.fieldPermissions)) {
        const p = a.fieldPermissions[code];
        if (p.editable && !p.visible) add('fieldPermission', `字段 ${code} 不可见时不能可编辑`, a.code);
        if (p.required && !p.editable) add('fieldPermission', `字段 ${code} 必填时须可编辑`, a.code);
      }
    }
  }

  // Reachability both ways.
  const walk = (from: string[], next: Map<string, string[]>) => {
    const seen = new Set<string>(from);
    const stack = [...from];
    while (stack.length) for (const n of next.get(stack.pop()!) ?? []) if (!seen.has(n)) (seen.add(n), stack.push(n));
    return seen;
  };
  if (starts.length === 1) {
    const reachable = walk([starts[0].code], out);
    for (const a of template.activities) if (!reachable.has(a.code)) add('unreachable', `节点 ${a.name} 从开始节点无法到达`, a.code);
  }
  const reachesEnd = walk(ends.map((e) => e.code), into);
  for (const a of template.activities) if (!reachesEnd.has(a.code)) add('noPathToEnd', `节点 ${a.name} 无法到达结束节点`, a.code);

  // Every Join fed by one Parallel: walking back from the Join, every path meets the same Parallel first (an inner
  // Join stands for its own Parallel).
  const matching = new Map<string, string | null>();
  const parallelOf = (join: string, stack: Set<string>): string | null => {
    if (matching.has(join)) return matching.get(join)!;
    if (stack.has(join)) return null;
    stack.add(join);
    const found = new Set<string>();
    let broken = false;
    const seen = new Set<string>();
    const pending = [...into.get(join)!];
    while (pending.length) {
      const code = pending.pop()!;
      if (seen.has(code)) continue;
      seen.add(code);
      const a = byCode.get(code)!;
      if (a.type === 'Parallel') found.add(code);
      else if (a.type === 'Join') {
        const inner = parallelOf(code, stack);
        if (!inner) broken = true;
        else pending.push(...into.get(inner)!);
      } else if (a.type === 'Start') broken = true;
      else pending.push(...into.get(code)!);
    }
    stack.delete(join);
    const result = !broken && found.size === 1 ? [...found][0] : null;
    matching.set(join, result);
    return result;
  };
  for (const a of template.activities) {
    if (a.type === 'Join' && into.get(a.code)!.length && !parallelOf(a.code, new Set())) {
      add('joinParallel', `汇聚节点 ${a.name} 的每条流入路径须来自同一个并行分支`, a.code);
    }
  }
  return issues;
}
