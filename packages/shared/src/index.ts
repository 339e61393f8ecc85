export * from './errors/index.ts';
export * from './constants/index.ts';
export * from './validation/index.ts';
export * as contracts from './contracts/index.ts';
