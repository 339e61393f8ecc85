export * from './catalogue.ts';
export * from './envelope.ts';
