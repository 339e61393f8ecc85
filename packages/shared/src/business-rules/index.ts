/** Rollups and business rules (docs/decisions/0015). */
export * from './model.ts';
export * from './rollup.ts';
export * from './live-record.ts';
