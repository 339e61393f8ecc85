import type { Db } from '../../db/types.ts';
import type { RuleRecord } from '../business-rules/rule-runner.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { ChannelAdapter, ChannelKind } from '../notification/channels/channel.ts';

// One run of an automation's steps as each step sees it (docs/decisions/0041), apart from the steps themselves so
// that the steps plugins provide (plugin-steps.ts) can name it without importing the step runner.

type Row = Record<string, unknown>;

/** The outside channels as automations use them: the adapters and the engine's settings (the app's, or tests' fakes). */
export interface OutsideChannels {
  adapters: ReadonlyMap<ChannelKind, ChannelAdapter>;
  settingsOf(db: Db, engineCode: string, channel: ChannelKind): Promise<unknown | null>;
  /** The web app's address, for links back to the record. */
  publicUrl: string;
}

export interface StepRun {
  edb: EngineExecutor;
  /** Who the steps act as: the owner (their rights), or the owner with an administrator's rights (run as system). */
  actor: NodeContext;
  system: boolean;
  /** The trigger record (a webhook's body as values; empty for a timed trigger). */
  record: RuleRecord;
  form: RuntimeForm;
  /** The forms as the owner may use them (their rights), read before the transaction; others are read when needed. */
  ownerForms: Map<string, RuntimeForm>;
  /** Query steps' results by step id (their records' values), read by later steps. */
  queries: Map<string, Row[]>;
  dryRun: boolean;
  deliveries: OutsideChannels;
  fetch: typeof fetch;
  dropped: string[];
}

/** A failure the retry of the run may mend (an outside service's 5xx or the network). */
export class RetryableStepError extends Error {}
