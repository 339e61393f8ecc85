export * from './fields.ts';
export * from './units.ts';
export * from './queries.ts';
export * from './admin.ts';
export * from './invitation-links.ts';
