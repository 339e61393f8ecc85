import { FEATURE_SWITCH_NAMES, isSwitchOn, type FeatureSwitchName } from '@tritium/shared/constants/feature-switches';

/** The switches loaded when the workbench starts: the shared list, so the server knows every name asked for. */
export { FEATURE_SWITCH_NAMES, type FeatureSwitchName };

/** Switch values by name; a switch the server did not return is off. */
export function toSwitchMap(switches: ReadonlyArray<{ name: string; value: string }>): Record<FeatureSwitchName, boolean> {
  const values = new Map(switches.map((s) => [s.name, s.value]));
  return Object.fromEntries(FEATURE_SWITCH_NAMES.map((name) => [name, isSwitchOn(values.get(name))])) as Record<FeatureSwitchName, boolean>;
}
