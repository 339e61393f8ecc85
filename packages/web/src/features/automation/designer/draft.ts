import type { z } from 'zod';
import { Automation, AutomationTrigger, PLUGIN_ACTIONS, type AutomationActionType, type AutomationStepInput, type Recipients } from '@tritium/shared/automation/index';
import type { FilterGroup } from '@tritium/shared/query/index';
import type { AutomationDto } from '../automation-api.ts';

// The designer's working copy of an automation: the model's input shape, checked with Automation itself on save and
// before a test run, so the page refuses exactly what the server would.

export type TriggerDraft = z.input<typeof AutomationTrigger>;
export type StepDraft = AutomationStepInput;
type PluginAction = (typeof PLUGIN_ACTIONS)[number];
/** The model declares the plugin steps as one member typed by both names, so each is cut from it here. */
type PluginStepOf<T extends PluginAction> = Omit<Extract<StepDraft, { type: PluginAction }>, 'type'> & { type: T };
export type StepOf<T extends StepDraft['type']> = T extends PluginAction ? PluginStepOf<T> : Extract<StepDraft, { type: T }>;

export interface AutomationDraft {
  id?: string;
  name: string;
  enabled: boolean;
  trigger: TriggerDraft;
  condition: FilterGroup | null;
  steps: StepDraft[];
  runAs: 'owner' | 'system';
}

export const isPluginAction = (type: AutomationActionType): type is PluginAction => (PLUGIN_ACTIONS as readonly string[]).includes(type);

/** Triggers without a record: no condition, no record to test against. */
export const isRecordless = (type: TriggerDraft['type']) => type === 'timing' || type === 'webhook' || type === 'connector';

export function newDraft(name: string): AutomationDraft {
  return { name, enabled: true, trigger: { type: 'effective' }, condition: null, steps: [], runAs: 'owner' };
}

export function draftOf(dto: AutomationDto): AutomationDraft {
  return { id: dto.id, name: dto.name, enabled: dto.enabled, trigger: dto.trigger, condition: (dto.condition as FilterGroup | null) ?? null, steps: dto.steps, runAs: dto.runAs };
}

/** S1, S2, …: the first id no step has (ids are referenced by loops and `{S1.Code}` placeholders, so they never change). */
export function nextStepId(steps: readonly StepDraft[]): string {
  const ids = new Set(steps.map((s) => s.id));
  let n = steps.length + 1;
  while (ids.has(`S${n}`)) n += 1;
  return `S${n}`;
}

const recipients = (): Recipients => ({ owner: true, creator: false, fields: [], userIds: [], addresses: [] });

/** A new step of a type, with the settings it needs empty (a plugin step's settings are checked by the server on save). */
export function newStep(type: AutomationActionType, steps: readonly StepDraft[]): StepDraft {
  const base = { id: nextStepId(steps), name: '' };
  switch (type) {
    case 'insert': return { ...base, type, targetSchemaCode: '', forEach: null, mappings: [], status: 'effective' };
    case 'update': return { ...base, type, targetSchemaCode: '', forEach: null, match: [], mappings: [], upsert: false };
    case 'remove': return { ...base, type, targetSchemaCode: '', forEach: null, match: [] };
    case 'query': return { ...base, type, targetSchemaCode: '', match: [], filter: null, limit: 100 };
    case 'notification': return { ...base, type, recipients: recipients(), title: '', content: '' };
    case 'email': return { ...base, type, recipients: recipients(), title: '', content: '' };
    case 'sms': return { ...base, type, recipients: recipients(), content: '' };
    case 'robot': return { ...base, type, title: '', content: '' };
    case 'http': return { ...base, type, method: 'POST', url: 'https://', headers: [], body: '', responseMappings: [] };
    case 'connector': return { ...base, type, connectorCode: '', params: [], outputMappings: [] };
    case 'payment': return { ...base, type, settings: { controlCode: '' } };
    case 'attendance': return { ...base, type, settings: { targetSchemaCode: '', range: { type: 'yesterday' }, people: { type: 'all' }, mappings: { user: '', time: '' } } };
  }
}

/** A new trigger of a type with its defaults (the model's), keeping nothing of the old one. */
export function newTrigger(type: TriggerDraft['type']): TriggerDraft {
  switch (type) {
    case 'changing': return { type, field: '' };
    case 'date': return { type, field: '', offsetDays: 0, time: '09:00' };
    case 'timing': return { type, cycle: 'daily', start: new Date().toISOString(), end: null, every: 1 };
    case 'button': return { type, label: '', locations: ['form'], roleIds: [], confirmText: '', resultMessage: '' };
    default: return { type };
  }
}

export type DraftCheck = { ok: true; automation: Automation } | { ok: false; problems: string[] };

/** The draft through the model: the automation to send, or the problems in words ("动作 2 · 请设置字段映射"). */
export function checkDraft(draft: AutomationDraft, label: (path: readonly PropertyKey[]) => string): DraftCheck {
  const parsed = Automation.safeParse(draft);
  if (parsed.success) return { ok: true, automation: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = label(issue.path);
    return where ? `${where} · ${issue.message}` : issue.message;
  });
  return { ok: false, problems: [...new Set(problems)] };
}
