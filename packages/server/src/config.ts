import path from 'node:path';
import type { S3Settings } from './modules/files/file-store-s3.ts';

/** Server settings, read once from the environment (README "Settings"). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; unset means PGlite in the data folder. */
  databaseUrl?: string;
  /** Secret that signs access tokens; generated and kept in the data folder when unset. */
  jwtSecret?: string;
  /** Key of the notification channels' stored secrets (any string; its SHA-256 is the AES key); generated and kept in the database when unset. */
  secretKey?: string;
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
  /**
   * TRITIUM_TRUST_PROXY: the proxies whose X-Forwarded-For names the client (Fastify's trustProxy): unset trusts none;
   * `on` trusts every hop; otherwise a comma-separated list of addresses or CIDRs (nginx's own address). Behind nginx it must be set, or every person shares nginx's address in the request limits
   * and the operation log.
   */
  trustProxy: boolean | string[];
  /** WORKER_MODE=off: this process claims no background jobs (tests drive the runner by hand). */
  workerMode: 'on' | 'off';
  /** How long a job claim lasts without renewal (TRITIUM_JOB_LEASE_MS, default 30 s). */
  jobLeaseMs: number;
  /** Idle wait between job claims (TRITIUM_JOB_POLL_MS, default 500 ms). */
  jobPollMs: number;
  /** How often the scheduler looks for what fell due (timed automations, date triggers, workflow time limits). */
  schedulerTickMs: number;
  /** How often the embedded database's tables are vacuumed and analysed where they are due (TRITIUM_MAINTENANCE_INTERVAL_MS, default 60 s; docs/decisions/0110). */
  maintenanceIntervalMs: number;
  /** Days the operation log keeps its entries (TRITIUM_OPLOG_RETENTION_DAYS, default 365; docs/decisions/0113). */
  oplogRetentionDays: number;
  /** App copy pacing: nodes per batch and a pause after each (TRITIUM_COPY_BATCH_SIZE, TRITIUM_COPY_BATCH_DELAY_MS). */
  copyBatchSize: number;
  copyBatchDelayMs: number;
  /** Forms of at least this many rows get a report pre-aggregation (TRITIUM_REPORT_PRE_AGGREGATE_FROM_ROWS, default 100,000; docs/decisions/0074). */
  reportPreAggregateFromRows: number;
  /** The map control's tile URL template for browsers (unset: the web app's default; '' draws no tiles). */
  mapTileUrl?: string;
  /** The address people open the web app at, for links in e-mails and chat messages (TRITIUM_PUBLIC_URL). */
  publicUrl?: string;
  /**
   * Whether addresses administrators type in (HTTP steps, robots' webhooks, an SMS provider) may be loopback or private
   * ones (TRITIUM_OUTBOUND_PRIVATE=allow; default: only the open internet's, docs/decisions/0072).
   */
  outboundPrivate: boolean;
  /**
   * The embedded database's buffer cache (TRITIUM_PGLITE_SHARED_BUFFERS, default 32MB; PostgreSQL's own default is
   * 128MB). PGlite's memory grows to its peak and never shrinks, so the cache is most of what it holds
   * (docs/decisions/0102).
   */
  pgliteSharedBuffers: string;
  /** TRITIUM_METRICS=on: Prometheus metrics at /metrics for anyone who reaches the port (docs/decisions/0121). */
  metrics: boolean;
  /** TRITIUM_METRICS_TOKEN: /metrics answers only `Authorization: Bearer <token>` (and is served even without TRITIUM_METRICS). */
  metricsToken?: string;
  /** Where file bytes live: `folder` (the data folder's files/, the default) or `s3` (TRITIUM_FILE_STORE; docs/decisions/0122). */
  fileStore: 'folder' | 's3';
  /** The bucket of the S3-compatible store (TRITIUM_S3_*); also where `npm run files:to-s3` copies the folder's files. */
  s3: S3Settings;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.TRITIUM_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.TRITIUM_JWT_SECRET || undefined,
    secretKey: env.TRITIUM_SECRET_KEY || undefined,
    fixedVerifyCode: env.TRITIUM_FIXED_VERIFY_CODE || undefined,
    smsUrl: env.TRITIUM_SMS_URL || undefined,
    smsToken: env.TRITIUM_SMS_TOKEN || undefined,
    webDist: env.TRITIUM_WEB_DIST || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimit: env.TRITIUM_RATE_LIMIT !== 'off',
    trustProxy: trustProxyOf(env.TRITIUM_TRUST_PROXY),
    workerMode: env.WORKER_MODE === 'off' ? 'off' : 'on',
    jobLeaseMs: positive(env.TRITIUM_JOB_LEASE_MS, 30_000),
    jobPollMs: positive(env.TRITIUM_JOB_POLL_MS, 500),
    schedulerTickMs: positive(env.TRITIUM_SCHEDULER_TICK_MS, 5_000),
    maintenanceIntervalMs: positive(env.TRITIUM_MAINTENANCE_INTERVAL_MS, 60_000),
    oplogRetentionDays: positive(env.TRITIUM_OPLOG_RETENTION_DAYS, 365),
    copyBatchSize: positive(env.TRITIUM_COPY_BATCH_SIZE, 200),
    reportPreAggregateFromRows: positive(env.TRITIUM_REPORT_PRE_AGGREGATE_FROM_ROWS, 100_000),
    copyBatchDelayMs: Number(env.TRITIUM_COPY_BATCH_DELAY_MS ?? 0) || 0,
    mapTileUrl: env.TRITIUM_MAP_TILE_URL,
    publicUrl: env.TRITIUM_PUBLIC_URL || undefined,
    outboundPrivate: env.TRITIUM_OUTBOUND_PRIVATE === 'allow',
    metrics: env.TRITIUM_METRICS === 'on',
    metricsToken: env.TRITIUM_METRICS_TOKEN || undefined,
    pgliteSharedBuffers: /^\d+(kB|MB|GB)$/.test(env.TRITIUM_PGLITE_SHARED_BUFFERS ?? '') ? env.TRITIUM_PGLITE_SHARED_BUFFERS! : '32MB',
    fileStore: fileStoreOf(env.TRITIUM_FILE_STORE),
    s3: {
      bucket: env.TRITIUM_S3_BUCKET || undefined,
      prefix: env.TRITIUM_S3_PREFIX ?? '',
      endpoint: env.TRITIUM_S3_ENDPOINT || undefined,
      region: env.TRITIUM_S3_REGION || env.AWS_REGION || 'us-east-1',
      forcePathStyle: env.TRITIUM_S3_FORCE_PATH_STYLE === 'true' || env.TRITIUM_S3_FORCE_PATH_STYLE === '1',
      accessKeyId: env.TRITIUM_S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.TRITIUM_S3_SECRET_ACCESS_KEY || undefined,
      partSizeBytes: Math.max(5, positive(env.TRITIUM_S3_PART_SIZE_MB, 8)) * 1024 * 1024,
    },
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A misspelt store must not quietly become the folder: on several processes each would keep its own files. */
function fileStoreOf(value: string | undefined): 'folder' | 's3' {
  if (!value || value === 'folder') return 'folder';
  if (value === 's3') return 's3';
  throw new Error(`TRITIUM_FILE_STORE must be folder or s3, not ${JSON.stringify(value)}`);
}

/** TRITIUM_TRUST_PROXY as Fastify's trustProxy (see ServerConfig.trustProxy). */
export function trustProxyOf(value: string | undefined): boolean | string[] {
  const text = value?.trim() ?? '';
  if (!text || text === 'off') return false;
  if (text === 'on' || text === 'true') return true;
  return text.split(',').map((part) => part.trim()).filter(Boolean);
}
