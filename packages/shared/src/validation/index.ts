export * from './patterns.ts';
export * from './zod.ts';
export * from './messages.ts';
export * from './unstorable-text.ts';
