// The theme lives in lib/theme.ts (features read its app colours and may not import the app); kept for callers.
export * from '../lib/theme.ts';
