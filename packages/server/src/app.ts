import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { Db } from './db/types.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerInputEdge } from './plugins/input-edge.ts';
import { createTokenService, loadSigningSecret, type TokenService } from './modules/auth/token.service.ts';
import { createHttpSmsSender, createLogSmsSender, type SmsSender } from './modules/auth/sms.ts';
import { createVerifyCodeService } from './modules/auth/verify-code.service.ts';
import { signInRoutes } from './modules/auth/sign-in.routes.ts';
import { registerRoutes } from './modules/register/register.routes.ts';
import { userRoutes } from './modules/user/user.routes.ts';
import { engineRoutes } from './modules/engine/engine.routes.ts';
import { clientLogRoutes } from './modules/client-log/client-log.routes.ts';
import { integrationRoutes } from './modules/integrations/integration.routes.ts';
import { chatAppRoutes } from './modules/chat-apps/chat-apps.routes.ts';
import { chatAppAdapter } from './modules/chat-apps/chat-app.adapter.ts';
import { loadChatAppDelivery } from './modules/chat-apps/chat-app-channel.ts';
import { DIRECTORY_SYNC_JOB, directorySyncHandler } from './modules/integrations/chat-sign-in.ts';
import { featureSwitchRoutes } from './modules/feature-switch/feature-switch.routes.ts';
import { orgRoutes } from './modules/org/org.routes.ts';
import { associatedOrgRoutes } from './modules/associated-org/associated-org.routes.ts';
import { functionNodeRoutes } from './modules/function-node/function-node.routes.ts';
import { workbenchRoutes } from './modules/workbench/workbench.routes.ts';
import { formDesignRoutes } from './modules/form-design/form-design.routes.ts';
import { businessDataRoutes } from './modules/business-data/business-data.routes.ts';
import { queryRoutes } from './modules/query/query.routes.ts';
import { reportRoutes } from './modules/report/report.routes.ts';
import { PRE_AGGREGATE_JOB, preAggregateHandler } from './modules/report/report.routes.ts';
import { dataLinkRoutes } from './modules/business-data/data-link.routes.ts';
import { openApiRoutes } from './modules/open-api/open-api.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { snsRoutes } from './modules/sns/sns.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { formulaRoutes } from './modules/formula/formula.routes.ts';
import { workflowRoutes } from './modules/workflow/workflow.routes.ts';
import { startFromForm } from './modules/workflow/workflow.service.ts';
import { businessRuleRoutes } from './modules/business-rules/business-rules.routes.ts';
import { permissionRoutes } from './modules/permission/permission.routes.ts';
import { oplogRoutes } from './modules/audit/oplog.routes.ts';
import { bizLogRoutes } from './modules/script/bizlog.routes.ts';
import { bizLogRetentionSweep } from './modules/script/bizlog-sweep.ts';
import { connectorDeliveryRetentionSweep } from './modules/automation/connector-delivery-sweep.ts';
import { customCodeRoutes } from './modules/custom-code/custom-code.routes.ts';
import { scriptActionRoutes } from './modules/custom-code/script-actions.routes.ts';
import { registerFormScripts } from './modules/custom-code/form-script-hooks.ts';
import { registerCustomApis } from './modules/custom-code/custom-apis.ts';
import { closeSandboxPool } from './modules/script/sandbox.ts';
import { oplogRetentionSweep } from './modules/audit/oplog-sweep.ts';
import { ROLLUP_RECOMPUTE_JOB, rollupRecomputeHandler } from './modules/business-rules/rollup-recompute.ts';
import { registerRecordHooks } from './modules/business-rules/record-hooks.ts';
import { registerFormRules } from './modules/business-rules/publish-checks.ts';
import { setRecordQuery } from './modules/business-data/record-query-port.ts';
import { registerFormsRemoval } from './modules/form-design/forms-removal.ts';
import { queryRecords } from './modules/query/query.service.ts';
import { workflowDesignRoutes } from './modules/workflow/workflow-design.routes.ts';
import { flowCenterRoutes } from './modules/workflow/flow-center.routes.ts';
import { remindRoutes } from './modules/remind/remind.routes.ts';
import { createLocalFileStore, type FileStore } from './modules/files/file-store.ts';
import { createS3FileStore } from './modules/files/file-store-s3.ts';
import { createFileUrlSigner } from './modules/files/file-url.ts';
import { dataPortRoutes } from './modules/data-port/data-port.routes.ts';
import { dataPortSettings } from './modules/data-port/task-files.ts';
import { DATA_IMPORT_JOB, dataImportHandler } from './modules/data-port/import.job.ts';
import { DATA_IMPORT_ROLLBACK_JOB, importRollbackHandler } from './modules/data-port/rollback.job.ts';
import { DATA_EXPORT_JOB, dataExportHandler } from './modules/data-port/export.job.ts';
import type { RecordFileAccess } from './modules/files/files.policy.ts';
import { recordFileAccess } from './modules/business-data/record-file-access.ts';
import { APP_COPY_JOB, appCopyHandler } from './modules/function-node/app-copy.job.ts';
import { appPackageRoutes } from './modules/app-package/app-package.routes.ts';
import { templateRoutes } from './modules/template/template.routes.ts';
import { APP_INSTALL_JOB, appInstallHandler } from './modules/app-package/install.job.ts';
import { viewRoutes } from './modules/view/view.routes.ts';
import { BATCH_UPDATE_JOB, batchUpdateHandler } from './modules/view/batch-update.job.ts';
import { outboundFetch } from './lib/outbound-http.ts';
import { notificationChannelRoutes } from './modules/notification/channels/notification-channels.routes.ts';
import { connectorRoutes } from './modules/connectors/connectors.routes.ts';
import { paymentRoutes } from './modules/payment/payment.routes.ts';
import { pluginRoutes } from './modules/plugin-instances/plugins.routes.ts';
import { pluginGate } from './modules/plugin-instances/plugin-gate.ts';
import { aiRoutes } from './modules/ai/ai.routes.ts';
import { ocrRoutes } from './modules/ocr/ocr.routes.ts';
import { aiUsageRetentionSweep } from './modules/ai/ai-usage.ts';
import { dataSourceRoutes } from './modules/connectors/data-source.routes.ts';
import { connectorTriggerRoutes } from './modules/automation/connector-trigger.routes.ts';
import { connectionHealthSweep } from './modules/connectors/connector-calls.ts';
import { faceCheckRoutes } from './modules/face-check/face-check.routes.ts';
import { loadSecretKey } from './modules/notification/channels/secret-box.ts';
import { channelAdapters } from './modules/notification/channels/channel-adapters.ts';
import { loadChannelSettings } from './modules/notification/channels/channel-settings.ts';
import { engineDb } from './db/database.ts';
import { JobRegistry } from './jobs/job-registry.ts';
import { printRoutes } from './modules/print/print.routes.ts';
import { PRINT_JOB, printJobHandler, printSettings } from './modules/print/print.job.ts';
import { createPdfRenderer } from './modules/print/print-pdf.ts';
import { printFileSweep } from './modules/print/print-sweep.ts';
import { eSignRoutes } from './modules/e-sign/esign.routes.ts';
import { createJobRunner, type JobRunner } from './jobs/job-runner.ts';
import { automationRoutes } from './modules/automation/automation.routes.ts';
import { externalFormRoutes } from './modules/external-form/external-form.routes.ts';
import { AUTOMATION_RUN_JOB, hasEventAutomations, queueRecordEvents } from './modules/automation/automation-events.ts';
import { automationRunHandler } from './modules/automation/automation-runner.ts';
import { automationScheduleSweep } from './modules/automation/automation-schedules.ts';
import { taskTipSweep } from './modules/sns/task-tip-delivery.ts';
import { TRIGRAM_BACKFILL_JOB, trigramBackfillHandler } from './modules/form-design/trigram-backfill.job.ts';
import { UUID_IDS_JOB, uuidIdsHandler } from './modules/form-design/uuid-ids.job.ts';
import { setRecordEventSink } from './modules/business-data/record-hooks-port.ts';
import { INSTANCE_HEADER, INSTANCE_ID } from './lib/instance-id.ts';
import { createScheduler, SweepRegistry, type Scheduler } from './scheduler/scheduler.ts';
import { embeddedMaintenanceSweep } from './db/embedded-maintenance.ts';
import { workflowTimeLimitSweep } from './modules/workflow/time-limit-timers.ts';
import { RATE_LIMITS } from './lib/route-types.ts';
import type { Database, Listen } from './db/database.ts';
import { healthRoutes } from './modules/operations/health.routes.ts';
import { registerMetrics } from './modules/operations/metrics.ts';
import { postgresRateLimitStore } from './modules/operations/rate-limit-store.ts';
import { runAsRequest } from './lib/request-context.ts';
import { notificationRoutes } from './modules/notification/notification.routes.ts';
import { createLiveHub, listenInto, type LiveHub } from './modules/notification/live-hub.ts';
import { NOTIFICATION_DELIVERY_JOB } from './modules/notification/notify.ts';
import { deliveryHandler, type DeliverySettings } from './modules/notification/delivery.job.ts';

export interface BuildAppOptions {
  config: AppConfig;
  db: Db;
  /** Overrides for tests: a fake clock for tokens, another SMS sender. */
  now?: () => number;
  sms?: SmsSender;
  logger?: boolean | object;
  /** Where file bytes go; default: the data folder's files/ (docs/decisions/0008). */
  fileStore?: FileStore;
  /** Record-level read check for claimed files; default: the business-data record policy (docs/decisions/0008). */
  recordFileAccess?: RecordFileAccess;
  /** LISTEN on the database: live events reach this process's browsers through it (without it, none do). */
  listen?: Listen;
  /** Outside channels' adapters and settings for notification deliveries (tests point them at local fakes). */
  deliveries?: Partial<DeliverySettings>;
  /** The scheduler's time (tests move it; tokens keep `now`). */
  clock?: () => Date;
  /** The HTTP client of addresses administrators type in (HTTP steps, robots, SMS); default: lib/outbound-http.ts. */
  fetch?: typeof fetch;
  /**
   * The database's kind and pool (docs/decisions/0121): on PostgreSQL the request limits are counted in the database and
   * the pool's figures are in the metrics. Unset: as the embedded database (limits counted in memory).
   */
  database?: Pick<Database, 'kind' | 'poolStats'>;
}

export interface AppExtras {
  tokens: TokenService;
  /** The background job runner; main.ts starts it unless WORKER_MODE=off, tests call runOnce(). */
  jobs: JobRunner;
  /** Finds what fell due (timed automations, workflow time limits); main.ts starts it with the job runner, tests call tick(). */
  scheduler: Scheduler;
  /** The browsers connected to this process by server-sent events. */
  live: LiveHub;
}

/**
 * The built web app's caching: the build names every file under assets/ by its content, so a browser keeps those for a
 * year without asking again; index.html (the pages' one document, which names the current files) and the rest are asked
 * again each time, so a new release is seen at the next load.
 */
function webCacheControl(webDist: string) {
  const assets = path.join(webDist, 'assets') + path.sep;
  return (reply: FastifyReply, file: string) => reply.header('cache-control', file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** Builds the Fastify app without listening (conventions: app.inject() in tests). */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance & { extras: AppExtras }> {
  const { config, db } = options;
  // Business rules plug into the lower layers' ports: saves and removals, publish and checkreference (docs/decisions/0026).
  registerRecordHooks();
  registerFormScripts();
  registerCustomApis();
  registerFormRules();
  // Associations and data links read other forms through the query engine, which stands above business data.
  setRecordQuery(queryRecords);
  // Removing nodes drops their forms' tables: form design stands above function nodes.
  registerFormsRemoval();
  // Automations hear record events (saves, removals, flows) through business data's port (docs/decisions/0041).
  setRecordEventSink(queueRecordEvents, hasEventAutomations);
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID(),
    requestIdHeader: false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: config.trustProxy ?? false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the API; answers are written as they are (errors share the 200 status).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    reply.header(INSTANCE_HEADER, INSTANCE_ID);
    return payload;
  });
  // The request's id follows its work into the jobs it queues (docs/decisions/0121). Entered again after the body is
  // parsed: the parser's stream events run outside the first hook's context.
  app.addHook('onRequest', (request, _reply, done) => runAsRequest(request.id, done));
  app.addHook('preHandler', (request, _reply, done) => runAsRequest(request.id, done));

  const webDist = config.webDist && existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : undefined;
  registerErrorHandler(app, webDist ? { spaFallback: (_req, reply) => reply.type('text/html').sendFile('index.html') } : {});
  registerInputEdge(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tritium API', version: '0.1.0', description: '低代码业务应用平台接口。所有接口返回 { successful, data } 或错误信封。' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, engineCode: { type: 'apiKey', in: 'header', name: 'EngineCode' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', uiConfig: { docExpansion: 'list' } });
  // On PostgreSQL the limits are counted in the database, so every server process shares one allowance per address;
  // the embedded database is one process per data folder, so its limits stay in that process's memory.
  if (config.rateLimit)
    await app.register(fastifyRateLimit, { global: false, ...(options.database?.kind === 'postgres' ? { store: postgresRateLimitStore(db) } : {}) });

  const signingSecret = await loadSigningSecret(db, config.jwtSecret);
  // The key of the secrets stored for outside notification channels (AES-256-GCM).
  await loadSecretKey(db, config.secretKey);
  const tokens = createTokenService(db, signingSecret, options.now);
  const sms = options.sms ?? (config.smsUrl ? createHttpSmsSender(config.smsUrl, config.smsToken) : createLogSmsSender(app.log));
  const addressLimit = config.rateLimit ? { max: RATE_LIMITS.sendCode.max, windowSeconds: 60 } : undefined;
  const codes = createVerifyCodeService({ db, sms, fixedCode: config.fixedVerifyCode, log: app.log, addressLimit });
  const contextCaches = registerAuth(app, { db, tokens });

  const deps = { db, tokens, codes };
  // The connector features answer only while the connector plugin is installed (docs/decisions/0123).
  app.addHook('preHandler', pluginGate(db, '/v1/connectors/', 'connector'));
  const outbound = options.fetch ?? outboundFetch({ allowPrivate: config.outboundPrivate });
  app.get('/v1/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  signInRoutes(app, deps);
  registerRoutes(app, deps);
  userRoutes(app, deps);
  engineRoutes(app, deps);
  featureSwitchRoutes(app, deps);
  orgRoutes(app, deps);
  associatedOrgRoutes(app, { db, now: options.now });
  functionNodeRoutes(app, deps);
  workbenchRoutes(app, deps);
  formDesignRoutes(app, deps);
  const fileStore = options.fileStore ?? fileStoreOf(config);
  healthRoutes(app, { db, fileStore });
  if (fileStore.close) app.addHook('onClose', () => fileStore.close!());
  businessDataRoutes(app, { ...deps, fileStore, startWorkflow: startFromForm });
  externalFormRoutes(app, {
    db,
    startWorkflow: startFromForm,
    codes: { send: (mobile, address) => codes.send(mobile, 'query', address), consume: (mobile, code) => codes.consume(mobile, 'query', code) },
    now: options.clock ?? (options.now ? () => new Date(options.now!()) : undefined) });
  queryRoutes(app, { db, now: options.now });
  reportRoutes(app, { db, clock: options.clock ?? (options.now ? () => new Date(options.now!()) : undefined), preAggregateFromRows: config.reportPreAggregateFromRows });
  dataLinkRoutes(app, { db });
  openApiRoutes(app, { db, fileStore, now: options.now, contextCaches });
  viewRoutes(app, { db, fileStore, now: options.now });
  snsRoutes(app, deps);
  searchRoutes(app, deps);
  formulaRoutes(app, deps);
  workflowRoutes(app, { ...deps, fileStore });
  businessRuleRoutes(app, deps);
  permissionRoutes(app, deps);
  oplogRoutes(app, deps);
  bizLogRoutes(app, deps);
  customCodeRoutes(app, { db, now: options.clock ?? (options.now ? () => new Date(options.now!()) : undefined) });
  // The script sandbox's worker threads (docs/decisions/0118): ended with the app, started again by a later run.
  app.addHook('onClose', () => closeSandboxPool());
  scriptActionRoutes(app, { db, fileStore });
  flowCenterRoutes(app, { ...deps, now: options.now });
  remindRoutes(app, deps);
  notificationChannelRoutes(app, { ...deps, http: outbound });
  // Connections and connectors (docs/decisions/0120): every call leaves through the same guarded client.
  connectorRoutes(app, { db, http: outbound });
  paymentRoutes(app, { db, http: outbound, publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}/` });
  // Face check (docs/decisions/0123): the provider is called through the same guarded client.
  faceCheckRoutes(app, { db, store: fileStore, http: outbound });
  // Plugins (docs/decisions/0123).
  pluginRoutes(app, { db, http: outbound, publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}/` });
  // The engine's AI provider and the chat calls over it (docs/decisions/0124): through the same guarded fetch.
  aiRoutes(app, { db, http: outbound, store: fileStore });
  ocrRoutes(app, { db, http: outbound, store: fileStore });
  dataSourceRoutes(app, { db, http: outbound });
  connectorTriggerRoutes(app, { db, now: options.clock ?? (options.now ? () => new Date(options.now!()) : undefined) });
  workflowDesignRoutes(app, deps);
  fileRoutes(app, {
    db,
    store: fileStore,
    urls: createFileUrlSigner(signingSecret, options.now),
    recordAccess: options.recordFileAccess ?? recordFileAccess,
  });
  const dataPort = { store: fileStore, urls: createFileUrlSigner(signingSecret, options.now), ...dataPortSettings() };
  dataPortRoutes(app, { db, ...dataPort });
  const pdf = createPdfRenderer();
  app.addHook('onClose', () => pdf.close());
  printRoutes(app, { db, urls: dataPort.urls, store: fileStore, pdf });
  // E-signature flows of the e-sign control and the providers' callbacks (docs/decisions/0123).
  eSignRoutes(app, { db, http: outbound, store: fileStore, pdf, publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}/` });
  const live = createLiveHub();
  notificationRoutes(app, { db, hub: live });
  if (options.listen) {
    const stopListening = await listenInto(live, options.listen);
    app.addHook('onClose', () => stopListening());
  }
  // Open streams would hold the server's close: end them first.
  app.addHook('preClose', () => live.close());
  clientLogRoutes(app, deps);
  integrationRoutes(app, { ...deps, http: outbound, publicUrl: config.publicUrl });
  chatAppRoutes(app, { db, http: outbound, publicUrl: config.publicUrl });
  // App packages (issue 46; docs/decisions/0130): routes here.
  appPackageRoutes(app, { db, store: fileStore });
  // Templates and sharing (issue 46; docs/decisions/0131): routes here.
  templateRoutes(app, { db, store: fileStore });

  // Settings the web app reads before it starts (web/index.html loads this script): the map's tile source.
  const clientConfig = config.mapTileUrl === undefined ? {} : { mapTileUrl: config.mapTileUrl };
  app.get('/config.js', { config: { access: 'public' }, schema: { hide: true } }, (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(`window.__TRITIUM_CONFIG__ = ${JSON.stringify(clientConfig)};\n`),
  );

  if (webDist) {
    await app.register(fastifyStatic, { root: webDist, prefix: '/', wildcard: false, index: false, cacheControl: false, setHeaders: webCacheControl(webDist) });
    app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_req, reply) => reply.redirect('/entry/'));
  }

  const deliveries: DeliverySettings = {
    adapters: channelAdapters(outbound).set('chatApp', chatAppAdapter),
    // The chat-app channel's cards link back through this site's address, the one the deliveries use.
    settingsOf: (executor: Db, engineCode: string, channel: 'email' | 'sms' | 'robot' | 'chatApp') =>
      channel === 'chatApp' ? loadChatAppDelivery(executor, engineCode, outbound, deliveries.publicUrl) : loadChannelSettings(engineDb(executor, engineCode), channel),
    publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}/`,
    ...options.deliveries,
  };
  const automationRuns = { deliveries, fetch: outbound, caches: contextCaches };
  automationRoutes(app, { db, runs: automationRuns, now: options.clock ?? (options.now ? () => new Date(options.now!()) : undefined) });
  const registry = new JobRegistry()
    .register(APP_COPY_JOB, appCopyHandler({ batchSize: config.copyBatchSize, batchDelayMs: config.copyBatchDelayMs }))
    .register(ROLLUP_RECOMPUTE_JOB, rollupRecomputeHandler())
    .register(BATCH_UPDATE_JOB, batchUpdateHandler({ store: fileStore }))
    .register(DATA_IMPORT_JOB, dataImportHandler(dataPort))
    .register(DATA_IMPORT_ROLLBACK_JOB, importRollbackHandler(dataPort))
    .register(DATA_EXPORT_JOB, dataExportHandler(dataPort))
    .register(TRIGRAM_BACKFILL_JOB, trigramBackfillHandler())
    .register(UUID_IDS_JOB, uuidIdsHandler())
    .register(NOTIFICATION_DELIVERY_JOB, deliveryHandler(deliveries))
    .register(AUTOMATION_RUN_JOB, automationRunHandler(automationRuns))
    .register(PRINT_JOB, printJobHandler({ store: fileStore, pdf, ...printSettings() }))
    .register(DIRECTORY_SYNC_JOB, directorySyncHandler(outbound))
    .register(PRE_AGGREGATE_JOB, preAggregateHandler())
    // Tests and the kill scenario slow an install down on purpose (TRITIUM_APP_INSTALL_STEP_DELAY_MS; 0 in production).
    .register(APP_INSTALL_JOB, appInstallHandler({ stepDelayMs: Number(process.env.TRITIUM_APP_INSTALL_STEP_DELAY_MS ?? 0) || 0 }));
  const jobs = createJobRunner({ db, registry, leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, listen: options.listen, log: app.log });
  app.addHook('onClose', () => jobs.stop());
  // The scheduler's time: the clock given, else the token clock `now` (tests move either), else the system's.
  const clock = options.clock ?? (options.now ? () => new Date(options.now!()) : undefined);
  const sweeps = new SweepRegistry()
    .register('automation.schedules', automationScheduleSweep())
    .register('sns.task-tips', taskTipSweep())
    .register('workflow.time-limits', workflowTimeLimitSweep())
    .register('print.files', printFileSweep(fileStore))
    .register('audit.oplog-retention', oplogRetentionSweep({ retentionDays: config.oplogRetentionDays }))
    .register('script.bizlog-retention', bizLogRetentionSweep())
    .register('automation.connector-delivery-retention', connectorDeliveryRetentionSweep())
    .register('connectors.health', connectionHealthSweep({ http: outbound }))
    .register('ai.usage-retention', aiUsageRetentionSweep())
    .register('database.maintenance', embeddedMaintenanceSweep({ intervalMs: config.maintenanceIntervalMs }));
  const scheduler = createScheduler({ db, sweeps, clock, intervalMs: config.schedulerTickMs, log: app.log });
  app.addHook('onClose', () => scheduler.stop());
  registerMetrics(app, {
    enabled: config.metrics,
    token: config.metricsToken,
    db,
    poolStats: options.database?.poolStats,
    schedulerLastTick: () => scheduler.lastTickEnded(),
    liveConnections: () => live.size(),
    log: app.log,
  });

  return Object.assign(app, { extras: { tokens, jobs, live, scheduler } }) as unknown as FastifyInstance & { extras: AppExtras };
}

/** The folder store unless TRITIUM_FILE_STORE=s3 (docs/decisions/0122; the SDK is loaded on the bucket's first use). */
function fileStoreOf(config: AppConfig): FileStore {
  return config.fileStore === 's3' ? createS3FileStore(config.s3) : createLocalFileStore(path.join(config.dataDir, 'files'));
}
