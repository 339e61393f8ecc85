import { isSwitchOn } from '@tritium/shared';
import { VIEW_MODES } from '@tritium/shared/view-modes/index';
import { switchValues } from '../feature-switch/feature-switch.service.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { AppError } from '../../lib/app-error.ts';

// Feature switches of the view modes (domain.md §9: kanban, card and hierarchy views; Gantt): a mode whose switch is
// off for the engine is neither designed nor shown (docs/decisions/0047).

const SWITCHED = VIEW_MODES.flatMap((m) => ('featureSwitch' in m && m.featureSwitch ? [{ mode: m.mode as number, name: m.featureSwitch as string }] : []));

/** The mode numbers whose feature switch is off in the caller's engine. */
export async function modesSwitchedOff(ctx: NodeContext): Promise<number[]> {
  const values = await switchValues(ctx.db, ctx.engineCode, SWITCHED.map((s) => s.name));
  return SWITCHED.filter((s) => !isSwitchOn(values.get(s.name))).map((s) => s.mode);
}

/** Refuses a mode's data call when its switch is off (290020). */
export async function assertModeOn(ctx: NodeContext, mode: number): Promise<void> {
  if ((await modesSwitchedOff(ctx)).includes(mode)) throw new AppError('ViewModeSwitchedOff', { detail: { mode } });
}
