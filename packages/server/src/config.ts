import path from 'node:path';

/** Server settings, read once from the environment (README "Settings"). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; unset means PGlite in the data folder. */
  databaseUrl?: string;
  /** Secret that signs access tokens; generated and kept in the data folder when unset. */
  jwtSecret?: string;
  /** Every verification code takes this value (tests and demos); refused with a real SMS provider. */
  fixedVerifyCode?: string;
  /** Generic HTTP SMS gateway; unset means codes are written to the server log. */
  smsUrl?: string;
  smsToken?: string;
  /** Folder with the built web app; served when it exists. */
  webDist?: string;
  logLevel: string;
  /** Whether rate limits apply (always on except in tests that exercise other rules). */
  rateLimit: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.TRITIUM_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.TRITIUM_JWT_SECRET || undefined,
    fixedVerifyCode: env.TRITIUM_FIXED_VERIFY_CODE || undefined,
    smsUrl: env.TRITIUM_SMS_URL || undefined,
    smsToken: env.TRITIUM_SMS_TOKEN || undefined,
    webDist: env.TRITIUM_WEB_DIST || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimit: env.TRITIUM_RATE_LIMIT !== 'off',
  };
}
