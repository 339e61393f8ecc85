export * from './patterns.ts';
export * from './zod.ts';
