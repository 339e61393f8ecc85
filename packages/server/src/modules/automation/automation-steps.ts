import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { MAX_MESSAGE_RECIPIENTS } from '@tritium/shared/constants/limits';
import { fillTemplate, isEmailAddress, valueAtPath, type AutomationStep, type Recipients } from '@tritium/shared/automation/index';
import type { BusinessRule } from '@tritium/shared/business-rules/index';
import type { QueryLeaf, QueryNode } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused } from '../../lib/outbound-http.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { deleteRecord, findRecord } from '../business-data/records.repo.ts';
import { dropRecordFiles } from '../business-data/record-files.ts';
import { beforeRecordRemoved } from '../business-data/record-hooks-port.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { runOf, runRule, ruleValueOf, type RuleRecord, type RuleWrites } from '../business-rules/rule-runner.ts';
import { queryWindow } from '../query/query.service.ts';
import { assertCan } from '../permission/form-rights.ts';
import { notifyEach } from '../notification/notify.ts';
import { ChannelError, type OutgoingMessage } from '../notification/channels/channel.ts';
import type { Db } from '../../db/types.ts';
import { callConnector } from '../connectors/connector-calls.ts';
import { fillValue } from '../connectors/connector-mapping.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { pluginStepDefinition } from './plugin-steps.ts';
import { RetryableStepError, type StepRun } from './step-run.ts';

// What each step of an automation does (docs/decisions/0041). Data steps are the business rules' operations
// (runRule) with the automation's own writes: as the owner, within the owner's rights, or as the system. Outside steps
// go through the notification service and the channel adapters; in a test run they only say what they would send.

type Row = Record<string, unknown>;

export { RetryableStepError, type OutsideChannels, type StepRun } from './step-run.ts';

const HTTP_TIMEOUT_MS = 10_000;
/** An HTTP step reads at most this much of an answer: a larger one fails the step, it is not kept in memory. */
export const HTTP_ANSWER_MAX_BYTES = 1024 * 1024;

/** The answer's text, read until HTTP_ANSWER_MAX_BYTES; more fails the step. */
async function boundedText(answer: Response, url: string): Promise<string> {
  const tooLarge = () => new AppError('AutomationInvalid', { message: `请求 ${url} 的返回内容超过 1 MB`, detail: { reason: '返回内容超过 1 MB', reasonEn: 'the answer is over 1 MB' } });
  if (Number(answer.headers.get('content-length') ?? 0) > HTTP_ANSWER_MAX_BYTES) throw tooLarge();
  if (!answer.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > HTTP_ANSWER_MAX_BYTES) {
      await answer.body.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `{Code}`, `{Grid.Code}`, `{step.Code}` of the trigger record and earlier query steps. */
export function lookupOf(run: Pick<StepRun, 'record' | 'queries'>): (name: string) => unknown {
  return (name) => {
    const [head, tail] = name.split('.');
    if (tail === undefined) return run.record.values[name] ?? run.record.system[name] ?? (name === 'ObjectId' ? run.record.objectId : undefined);
    const found = run.queries.get(head!);
    if (found) return found[0]?.[tail];
    return (run.record.children[head!] ?? []).map((r) => r[tail]);
  };
}

/** The trigger record with the query steps' results as loopable rows (`forEachRow: stepId`, `stepId.Code`). */
const recordWithQueries = (run: StepRun): RuleRecord => ({ ...run.record, children: { ...run.record.children, ...Object.fromEntries(run.queries) } });

function writesOf(run: StepRun, status: 'effective' | 'draft', out: { inserted: string[]; updated: string[]; removed: string[] }): RuleWrites {
  const formFor = async (target: RuntimeForm) => (run.system ? target : (run.ownerForms.get(target.node.code) ?? getRuntimeFormOrThrow(run.edb, run.actor, target.node.code)));
  const editRight = run.system ? ({ editRight: 'businessRule' } as const) : {};
  return {
    async insert(target, values) {
      const code = status === 'effective' ? BizObjectStatus.Effective : BizObjectStatus.Draft;
      const saved = await saveRecordIn(run.edb, run.actor, await formFor(target), { submit: status === 'effective', values }, { status: () => code, ...editRight });
      run.dropped.push(...saved.dropped);
      out.inserted.push(saved.result.objectId);
    },
    async update(target, objectId, values, locked) {
      const saved = await saveRecordIn(run.edb, run.actor, await formFor(target), { objectId, submit: false, values }, { ...editRight, ...(locked ? { locked } : {}) });
      run.dropped.push(...saved.dropped);
      out.updated.push(objectId);
    },
    async remove(target, objectId) {
      const row = await findRecord(run.edb, target, objectId, { forUpdate: true });
      if (!row) return;
      if (!run.system) {
        const form = await formFor(target);
        assertCan(form.rights, 'delete');
      }
      const removal = await beforeRecordRemoved(run.edb, run.actor, target, row);
      await deleteRecord(run.edb, target, objectId);
      run.dropped.push(...(await dropRecordFiles(run.edb, target, objectId)));
      run.dropped.push(...(await removal.afterRemoved()));
      out.removed.push(objectId);
    },
  };
}

async function dataStep(run: StepRun, step: Extract<AutomationStep, { type: 'insert' | 'update' | 'remove' }>): Promise<unknown> {
  const out = { inserted: [] as string[], updated: [] as string[], removed: [] as string[] };
  const rule: BusinessRule = {
    id: step.id,
    name: step.name || step.id,
    enabled: true,
    on: 'effective',
    action: step.type === 'insert' ? 'insert' : step.type === 'remove' ? 'delete' : step.upsert ? 'upsert' : 'update',
    targetSchemaCode: step.targetSchemaCode,
    forEachRow: step.forEach ? (step.forEach.type === 'subtable' ? step.forEach.code : step.forEach.stepId) : null,
    conditions: step.type === 'insert' ? [] : step.match,
    mappings: step.type === 'remove' ? [] : step.mappings,
  };
  await runRule(runOf(run.edb, run.actor), rule, recordWithQueries(run), writesOf(run, step.type === 'insert' ? step.status : 'effective', out));
  return Object.fromEntries(Object.entries(out).filter(([, ids]) => ids.length));
}

async function queryStep(run: StepRun, step: Extract<AutomationStep, { type: 'query' }>): Promise<unknown> {
  const record = recordWithQueries(run);
  const leaves: QueryNode[] = step.match.map((m): QueryLeaf => {
    const value = ruleValueOf(m.value, record, undefined);
    return Array.isArray(value) ? { field: m.field, operator: 'In', value: value as never } : { field: m.field, operator: 'Equal', value: value as never };
  });
  if (step.filter) leaves.push(step.filter);
  const { list } = await queryWindow(run.actor, { schemaCode: step.targetSchemaCode, filter: { type: 'And', children: leaves } }, { offset: 0, limit: step.limit, count: false });
  run.queries.set(step.id, list);
  return { count: list.length, ids: list.slice(0, 20).map((r) => r.ObjectId) };
}

/** The people a step names: the record's owner and creator, users (and departments' members) in fields, named users. */
async function receiversOf(run: StepRun, recipients: Recipients): Promise<string[]> {
  const ids = new Set<string>(recipients.userIds);
  const sys = run.record.system;
  if (recipients.owner && sys.OwnerId) ids.add(String(sys.OwnerId));
  if (recipients.creator && sys.CreatedBy) ids.add(String(sys.CreatedBy));
  const departments: string[] = [];
  for (const code of recipients.fields) {
    const field = run.form.fields.find((f) => f.code === code);
    const value = run.record.values[code] ?? run.record.system[code];
    const list = (Array.isArray(value) ? value : value ? [value] : []).map(String);
    // The registry's data type says a field holds departments (unit / units), whichever control it is.
    if (field?.type.dataType === 'unit' || field?.type.dataType === 'units') departments.push(...list);
    else list.forEach((id) => ids.add(id));
  }
  if (departments.length) {
    const members = await run.edb.selectFrom('org_user_departments').select('user_id').where('department_id', 'in', departments).execute();
    members.forEach((m) => ids.add(m.user_id));
  }
  if (!ids.size) return [];
  const active = await run.edb.selectFrom('org_users').select('id').where('id', 'in', [...ids]).where('state', '=', 'active').execute();
  return active.map((u) => u.id);
}

const linkOf = (run: StepRun) => (run.record.objectId ? { schemaCode: run.form.node.code, objectId: run.record.objectId } : undefined);

async function notificationStep(run: StepRun, step: Extract<AutomationStep, { type: 'notification' }>): Promise<unknown> {
  const lookup = lookupOf(run);
  const receivers = await receiversOf(run, step.recipients);
  const notice = { category: 'automation' as const, title: fillTemplate(step.title, lookup), content: fillTemplate(step.content, lookup), link: linkOf(run) };
  if (!run.dryRun) await notifyEach(run.edb, run.actor.engineCode, receivers.map((receiver) => ({ receiver, notice })));
  return { receivers, title: notice.title };
}

/** Sends one message through an outside channel's adapter (the engine's settings), to each address. */
async function sendOutside(run: StepRun, channel: 'email' | 'sms' | 'robot', message: Omit<OutgoingMessage, 'recipient'>, addresses: string[]): Promise<string[]> {
  const adapter = run.deliveries.adapters.get(channel);
  const settings = adapter ? await run.deliveries.settingsOf(run.actor.db, run.actor.engineCode, channel) : null;
  if (!adapter || settings === null) throw new AppError('NotificationChannelNotConfigured');
  const details: string[] = [];
  const targets = channel === 'robot' ? [''] : addresses;
  for (const address of targets) {
    const recipient = { userId: '', name: address, email: channel === 'email' ? address : null, mobile: channel === 'sms' ? address : null };
    try {
      details.push(await adapter.send(settings, { ...message, recipient }));
    } catch (error) {
      if (error instanceof ChannelError) throw error.retryable ? new RetryableStepError(error.message) : new AppError('AutomationInvalid', { message: error.message, detail: { reason: error.message, reasonEn: error.message } });
      throw error;
    }
  }
  return details;
}

async function addressedStep(run: StepRun, step: Extract<AutomationStep, { type: 'email' | 'sms' }>): Promise<unknown> {
  const lookup = lookupOf(run);
  const users = await receiversOf(run, step.recipients);
  const column = step.type === 'email' ? 'email' : 'mobile';
  const known = users.length ? await run.edb.selectFrom('org_users').select(column).where('id', 'in', users).execute() : [];
  const fromUsers = known.map((u) => (u as Record<string, string | null>)[column]).filter((a): a is string => !!a);
  const fixed = step.recipients.addresses.filter((a) => (step.type === 'email' ? isEmailAddress(a) : /^1\d{10}$/.test(a)));
  const addresses = [...new Set([...fromUsers, ...fixed])];
  if (addresses.length > MAX_MESSAGE_RECIPIENTS) throw new AppError('MessageRecipientLimit', { detail: { max: MAX_MESSAGE_RECIPIENTS, count: addresses.length } });
  const title = step.type === 'email' ? fillTemplate(step.title, lookup) : '';
  const content = fillTemplate(step.content, lookup);
  if (run.dryRun || !addresses.length) return { to: addresses, title, sent: false };
  const link = linkOf(run);
  const url = link ? new URL(`/form/runtime/${encodeURIComponent(link.schemaCode)}/${encodeURIComponent(link.objectId)}`, run.deliveries.publicUrl).toString() : null;
  await sendOutside(run, step.type, { category: 'automation', title, content, link: url }, addresses);
  return { to: addresses, title, sent: true };
}

async function robotStep(run: StepRun, step: Extract<AutomationStep, { type: 'robot' }>): Promise<unknown> {
  const lookup = lookupOf(run);
  const message = { category: 'automation', title: fillTemplate(step.title, lookup), content: fillTemplate(step.content, lookup), link: null };
  if (run.dryRun) return { title: message.title, sent: false };
  return { title: message.title, sent: true, detail: await sendOutside(run, 'robot', message, []) };
}

async function httpStep(run: StepRun, step: Extract<AutomationStep, { type: 'http' }>): Promise<unknown> {
  const lookup = lookupOf(run);
  const url = fillTemplate(step.url, (name) => {
    const v = lookup(name);
    return v === null || v === undefined ? v : encodeURIComponent(String(v));
  }).trim();
  const body = step.method === 'GET' || step.method === 'DELETE' ? undefined : fillTemplate(step.body, lookup);
  if (run.dryRun) return { request: { method: step.method, url, body: body?.slice(0, 2000) ?? null }, sent: false };
  const headers = Object.fromEntries(step.headers.map((h) => [h.name, fillTemplate(h.value, lookup)]));
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  let answer: Response;
  try {
    answer = await run.fetch(url, { method: step.method, headers, body, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof OutboundRefused) {
      throw new AppError('AutomationInvalid', {
        message: `请求 ${url} 被拒绝：${error.reason === 'scheme' ? '只能请求 http 或 https 地址' : error.reason === 'redirects' ? '重定向次数过多' : '地址指向平台内部网络，外部请求不能访问'}`,
        detail: { reason: '请求地址不允许', reasonEn: error.message },
      });
    }
    throw new RetryableStepError(`请求 ${url} 失败：${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await boundedText(answer, url);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  if (answer.status >= 500) throw new RetryableStepError(`请求 ${url} 返回 ${answer.status}`);
  if (answer.status >= 400) throw new AppError('AutomationInvalid', { message: `请求 ${url} 返回 ${answer.status}：${text.slice(0, 200)}`, detail: { reason: `HTTP ${answer.status}`, reasonEn: `HTTP ${answer.status}` } });
  const values = Object.fromEntries(step.responseMappings.map((m) => [m.field, valueAtPath(json, m.path) ?? null]));
  await writeBack(run, values);
  return { status: answer.status, body: text.slice(0, 2000), ...(Object.keys(values).length ? { written: values } : {}) };
}

/** Writes values to the trigger record (as the owner, or as the system), as the HTTP and connector steps do. */
async function writeBack(run: StepRun, values: Record<string, unknown>): Promise<void> {
  if (!Object.keys(values).length || !run.record.objectId) return;
  const form = run.system ? run.form : (run.ownerForms.get(run.form.node.code) ?? (await getRuntimeFormOrThrow(run.edb, run.actor, run.form.node.code)));
  const saved = await saveRecordIn(run.edb, run.actor, form, { objectId: run.record.objectId, submit: false, values }, run.system ? { editRight: 'businessRule' } : {});
  run.dropped.push(...saved.dropped);
}

/** Connector failures the retry of the run may mend: the outside system's 5xx or 429, a time-out, the network. */
const RETRYABLE_CONNECTOR_ERRORS = new Set(['OutsideCallTimeout', 'OutsideUnreachable', 'OutsideTokenFailed']);

/**
 * Runs a connector (docs/decisions/0120): its `{{Code}}` places read the trigger record's fields (and ObjectId), the
 * step's parameters add or replace values (templates of the same places), and the outputs mapped are written back
 * to the record's fields. The call goes through the connectors' one client with the source 自动化.
 */
async function connectorStep(run: StepRun, step: Extract<AutomationStep, { type: 'connector' }>): Promise<unknown> {
  const recordValues: Record<string, unknown> = { ...run.record.system, ...run.record.values, ObjectId: run.record.objectId ?? '' };
  const values = { ...recordValues, ...Object.fromEntries(step.params.map((p) => [p.name, fillValue(p.value, recordValues)])) };
  const params = Object.fromEntries(step.params.map((p) => [p.name, values[p.name]]));
  if (run.dryRun) return { connectorCode: step.connectorCode, params, sent: false };
  // Inside the run's transaction, as a script's call is (the embedded database has one connection, held by the run):
  // a failed run takes the call's log row with it; its step log keeps the error.
  let outputs: Record<string, unknown>;
  try {
    ({ outputs } = await callConnector(run.edb, run.actor.engineCode, step.connectorCode, values, { http: run.fetch }, 'automation'));
  } catch (error) {
    if (error instanceof AppError) {
      const status = (error.detail as { status?: unknown } | undefined)?.status;
      const serverSide = error.errorName === 'OutsideCallFailed' && typeof status === 'number' && (status >= 500 || status === 429);
      if (serverSide || RETRYABLE_CONNECTOR_ERRORS.has(error.errorName)) throw new RetryableStepError(error.message);
    }
    throw error;
  }
  const written = Object.fromEntries(
    step.outputMappings.filter((m) => m.output in outputs).map((m) => {
      const value = outputs[m.output];
      return [m.field, value !== null && typeof value === 'object' ? JSON.stringify(value) : value];
    }),
  );
  await writeBack(run, written);
  return { connectorCode: step.connectorCode, params, outputs, ...(Object.keys(written).length ? { written } : {}) };
}

/** Runs one step; answers its output for the log. */
export async function runStep(run: StepRun, step: AutomationStep): Promise<unknown> {
  switch (step.type) {
    case 'insert':
    case 'update':
    case 'remove':
      return dataStep(run, step);
    case 'query':
      return queryStep(run, step);
    case 'notification':
      return notificationStep(run, step);
    case 'email':
    case 'sms':
      return addressedStep(run, step);
    case 'robot':
      return robotStep(run, step);
    case 'http':
      return httpStep(run, step);
    case 'connector':
      return connectorStep(run, step);
    case 'attendance':
    case 'payment': {
      // Provided by plugins (docs/decisions/0123): the step's module defines it; the plugin must still be installed.
      const definition = pluginStepDefinition(step.type);
      if (!definition) throw new AppError('AutomationPluginMissing', { detail: { action: step.type } });
      await requireInstalledPlugin(run.edb, definition.templates);
      return definition.run(run, step.settings);
    }
    default:
      throw new AppError('AutomationPluginMissing', { detail: { action: (step as { type: string }).type } });
  }
}
