// Moved to lib/route-handle.ts (feature route tables use it and may not import the app); kept for callers.
export * from '../lib/route-handle.ts';
