import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { StepRun } from './step-run.ts';

export { RetryableStepError, type StepRun } from './step-run.ts';

// The automation steps plugins provide (attendance, payment; docs/decisions/0123). A provider module defines its step
// here when it is imported (the app imports every module's routes); the automation's save checks the plugin is
// installed and asks the step to check its settings against the form; a run hands the step its settings.

export interface PluginStepDefinition {
  /** The plugin templates one of which must be installed (first installed wins). */
  templates: readonly string[];
  /** Save-time check of the step's settings against the trigger form; throws a catalogue error. */
  check(edb: EngineExecutor, form: RuntimeForm, settings: Record<string, unknown>): Promise<void>;
  /** Runs the step (inside the run's transaction, as every step does); answers its output for the run log. */
  run(run: StepRun, settings: Record<string, unknown>): Promise<unknown>;
}

const steps = new Map<string, PluginStepDefinition>();

export function definePluginStep(type: 'attendance' | 'payment', definition: PluginStepDefinition): void {
  steps.set(type, definition);
}

export function pluginStepDefinition(type: string): PluginStepDefinition | undefined {
  return steps.get(type);
}
