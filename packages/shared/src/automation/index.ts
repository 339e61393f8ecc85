/** Automations and smart actions (issue 21; docs/decisions/0041). */
export * from './model.ts';
