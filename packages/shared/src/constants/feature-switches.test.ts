import { describe, it, expect } from 'vitest';
import { FEATURE_SWITCH_DEFAULTS, FEATURE_SWITCH_NAMES, FEATURE_SWITCHES, isSwitchOn } from './feature-switches.ts';

describe('feature switches', () => {
  it('loads 22 distinct switches at start', () => {
    expect(FEATURE_SWITCHES).toHaveLength(22);
    expect(new Set(FEATURE_SWITCH_NAMES).size).toBe(22);
  });

  it('includes the switches the spec names', () => {
    for (const name of ['formulaControl', 'businessRule', 'kanbanView', 'cardView', 'hierarchyView', 'sso', 'newSubTable', 'privateDeployment']) {
      expect(FEATURE_SWITCH_NAMES).toContain(name);
    }
  });

  it('has a default of 1 or 0 for each, looked up by name', () => {
    for (const s of FEATURE_SWITCHES) expect(FEATURE_SWITCH_DEFAULTS[s.name]).toBe(s.defaultValue);
    expect(Object.values(FEATURE_SWITCH_DEFAULTS).every((v) => v === '1' || v === '0')).toBe(true);
    expect(FEATURE_SWITCH_DEFAULTS.unknownSwitch).toBeUndefined();
    expect(FEATURE_SWITCH_DEFAULTS.constructor).toBeUndefined();
  });

  it("is on only for the exact value '1'", () => {
    expect(isSwitchOn('1')).toBe(true);
    for (const value of ['0', '', 'true', ' 1', '01', 1, true, null, undefined]) expect(isSwitchOn(value)).toBe(false);
  });
});
