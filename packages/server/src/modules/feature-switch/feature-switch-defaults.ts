// Replaced by the shared constants once packages/shared/src/constants/feature-switches.ts lands.
export const FEATURE_SWITCH_DEFAULTS: Record<string, string> = {};
