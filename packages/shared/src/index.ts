export * from './errors/index.ts';
export * as contracts from './contracts/index.ts';
