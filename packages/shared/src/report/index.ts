export * from './model.ts';
export * from './conditions.ts';
