export * from './common.ts';
export * from './auth/index.ts';
export * from './org/index.ts';
export * from './function-node/index.ts';
export * from './workbench/index.ts';
export * from './form-design/index.ts';
export * from './files/index.ts';
export * from './business-data/index.ts';
