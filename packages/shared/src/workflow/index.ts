export * from './model.ts';
export * from './validate.ts';
export * from './condition.ts';
export * from './field-permissions.ts';
export * from './time-limits.ts';
