/** The control-type registry and what comes with it (conventions.md rule 4). */
export * from './types.ts';
export * from './registry.ts';
export * from './verify-control-add.ts';
export * from './control-definition.ts';
export * from './values.ts';
export * from './display.ts';
export * from './options/base.ts';
export * from './options/select.ts';
export * from './options/number.ts';
export * from './options/date.ts';
export * from './options/file.ts';
export * from './options/computed.ts';
export * from './options/association.ts';
export * from './check-value.ts';
export * from './input-values.ts';
