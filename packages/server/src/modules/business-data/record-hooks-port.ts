import { AsyncLocalStorage } from 'node:async_hooks';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RecordRow } from './records.repo.ts';
import type { RuntimeForm } from './runtime-form.ts';

// The port through which a layer above business data (business rules: docs/decisions/0015) takes part in a save
// and a removal, without business data importing it (docs/decisions/0026: the module graph is a DAG). The app
// registers the business-rules implementation at start (registerRecordHooks in business-rules/record-hooks.ts).

type Row = Record<string, unknown>;

export interface RecordHooks {
  /** After a save, in the caller's transaction; answers the stored files removed on the way. */
  afterRecordSaved(
    edb: EngineExecutor,
    ctx: NodeContext,
    form: RuntimeForm,
    change: { objectId: string; before: RecordRow | undefined; status: number; values: Row },
  ): Promise<string[]>;
  /** After a batch of saves of one form (record-batch.ts), in the caller's transaction: the rules' and dependants' reads once. */
  afterRecordsSaved(
    edb: EngineExecutor,
    ctx: NodeContext,
    form: RuntimeForm,
    changes: { objectId: string; before: RecordRow | undefined; status: number; values: Row }[],
  ): Promise<string[]>;
  /** Before a record is removed; `afterRemoved` runs once the row is gone. */
  beforeRecordRemoved(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, row: RecordRow): Promise<{ afterRemoved(): Promise<string[]> }>;
}

let hooks: RecordHooks | undefined;

const snapshot = new AsyncLocalStorage<true>();

/**
 * Runs `work` writing records that are a snapshot of data made elsewhere — an app package's sample records
 * (docs/decisions/0130): what business rules did to them and for them is already in the snapshot, so the rules do not
 * run again (a sale would lower the stock twice) and automations hear nothing; the save's checks, derived values and
 * rollups still run.
 */
export function asRecordSnapshot<T>(work: () => Promise<T>): Promise<T> {
  return snapshot.run(true, work);
}

/** Whether the records being written are such a snapshot (business rules and record events stay quiet). */
export const writingSnapshot = (): boolean => snapshot.getStore() === true;

export function setRecordHooks(next: RecordHooks): void {
  hooks = next;
}

/** The registered hooks; a save without them would silently skip rules and rollups, so it refuses instead. */
export function recordHooks(): RecordHooks {
  if (!hooks) throw new Error('record hooks not registered: call registerRecordHooks() (business-rules) at start');
  return hooks;
}

export const afterRecordSaved: RecordHooks['afterRecordSaved'] = (...args) => recordHooks().afterRecordSaved(...args);
export const afterRecordsSaved: RecordHooks['afterRecordsSaved'] = (...args) => recordHooks().afterRecordsSaved(...args);
export const beforeRecordRemoved: RecordHooks['beforeRecordRemoved'] = (...args) => recordHooks().beforeRecordRemoved(...args);

/** A record event as automations hear it (docs/decisions/0041): which triggers it is, and what changed. */
export interface RecordEvent {
  objectId: string;
  /** Trigger types (automation model: DATA_EVENT_TRIGGERS) this event is. */
  kinds: string[];
  /** Fields whose value the save changed: code → [before, after]. */
  changed?: Record<string, [unknown, unknown]>;
  /** The record's values, for events after which it is gone (deleted, voided by removal). */
  snapshot?: Row;
}

/** Hears record events in the caller's transaction (automations queue their runs); none registered: nobody hears. */
export type RecordEventSink = (edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, events: RecordEvent[]) => Promise<void>;

/** Whether anyone listens to a form's record events at all (answered from caches where it can be). */
export type RecordEventListeners = (edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm) => Promise<boolean>;

let eventSink: RecordEventSink | undefined;
let eventListeners: RecordEventListeners | undefined;

export function setRecordEventSink(sink: RecordEventSink, listeners?: RecordEventListeners): void {
  eventSink = sink;
  eventListeners = listeners;
}

/** Whether the registered sink may act on a form's events (a sink that cannot tell is assumed to). */
export async function recordEventsHeard(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm): Promise<boolean> {
  if (!eventSink) return false;
  return eventListeners ? eventListeners(edb, ctx, form) : true;
}

/** Tells the registered sink of record events (business rules' hooks call it for saves, removals and flows). */
export async function emitRecordEvents(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, events: RecordEvent[]): Promise<void> {
  if (writingSnapshot()) return;
  const heard = events.filter((e) => e.kinds.length);
  if (eventSink && heard.length) await eventSink(edb, ctx, form, heard);
}
