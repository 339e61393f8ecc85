import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One test command, several projects (README "Tests"). The server suite runs twice: on PGlite always and on
// PostgreSQL when TEST_DATABASE_URL names a server.
const serverProject = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    root: 'packages/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks' as const,
  },
});

const projects: any[] = [
  { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
  serverProject('server', { TEST_DB_KIND: 'pglite' }),
  {
    plugins: [react()],
    test: {
      name: 'web',
      root: 'packages/web',
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'happy-dom',
      setupFiles: ['src/test/setup.ts'],
      testTimeout: 20_000,
    },
  },
  {
    test: {
      name: 'e2e',
      root: 'e2e',
      include: ['**/*.e2e.ts'],
      globalSetup: ['global-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 180_000,
      fileParallelism: false,
    },
  },
];
if (process.env.TEST_DATABASE_URL) projects.splice(2, 0, serverProject('server-pg', { TEST_DB_KIND: 'postgres' }));

export default defineConfig({ test: { projects } });
