/** The filter model shared by the query engine, list views and the OpenAPI surface (docs/decisions/0013). */
export * from './operators.ts';
export * from './dynamic.ts';
export * from './filter.ts';
