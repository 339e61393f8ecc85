export * from './common.ts';
export * from './auth/index.ts';
