import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { loadConfig, type AppConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { FIXED_CODE, TEST_SECRET_KEY } from './helpers.ts';

/**
 * An app as test/helpers.ts's createTestApp builds it, with what these tests set beside the settings: the database's
 * kind (the shared limits), another file store, routes of their own added before the app is ready.
 */
export async function buildOperationsApp(
  database: Database,
  options: { config?: Partial<AppConfig>; fileStore?: BuildAppOptions['fileStore']; kind?: boolean; routes?: (app: FastifyInstance) => void } = {},
) {
  const config: AppConfig = { ...loadConfig({}), rateLimit: false, fixedVerifyCode: FIXED_CODE, jwtSecret: 'test-secret-0123456789abcdef', secretKey: TEST_SECRET_KEY, outboundPrivate: true, ...options.config };
  const app = await buildApp({
    config,
    db: database.db,
    logger: process.env.TEST_LOG ? { level: 'error' } : false,
    listen: database.listen,
    fileStore: options.fileStore,
    ...(options.kind === false ? {} : { database }),
  });
  options.routes?.(app);
  await app.ready();
  return app;
}
