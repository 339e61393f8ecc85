export * from './common.ts';
export * from './auth/index.ts';
export * from './org/index.ts';
