export * from './model.ts';
export * from './validate.ts';
export * from './condition.ts';
