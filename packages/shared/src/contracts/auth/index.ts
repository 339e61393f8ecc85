export * from './fields.ts';
export * from './sign-in.ts';
export * from './register.ts';
export * from './user.ts';
