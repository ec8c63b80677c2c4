import { ResultCode } from '@ipp/contracts';
import crypto from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { registerAccessControl } from './http/access.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { EXPENSIVE_RUNNING, EXPENSIVE_WAIT_MS, registerDeadline, registerExpensiveBounds } from './http/deadline.ts';
import { openapiTransform } from './http/openapi.ts';
import { clientErrorHandler, httpServerOptions, registerSecurityHeaders, requestSerializer } from './http/transport.ts';
import { AppError } from './http/app-error.ts';
import { sendFailure } from './http/envelope.ts';
import { parseLang } from './http/messages.ts';
import { registerErrorHandling, registerNotFound } from './http/error-handler.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { calibratePasswordChecks, configurePasswordHashing } from './security/password.ts';
import { registerWebApp } from './web/static.ts';
import multipart from '@fastify/multipart';
import { accountRoutes } from './modules/account/account.routes.ts';
import { AccountService } from './modules/account/account.service.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { RolesService } from './modules/roles/roles.service.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { SystemInfoService } from './modules/settings/system-info.service.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { TeamsService } from './modules/teams/teams.service.ts';
import { translationsRoutes } from './modules/translations/translations.routes.ts';
import { TranslationsService } from './modules/translations/translations.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { groupViewRoutes } from './modules/group-view/group-view.routes.ts';
import { GroupViewService } from './modules/group-view/group-view.service.ts';
import { ippsRoutes } from './modules/ipps/ipps.routes.ts';
import { IppsService } from './modules/ipps/ipps.service.ts';
import { UsersService } from './modules/users/users.service.ts';
import { deviceRoutes } from './modules/device/device.routes.ts';
import { IngestGate } from './modules/device/ingest-gate.ts';
import { DeviceService, configDocument } from './modules/device/device.service.ts';
import { allDeviceConfigs } from './modules/device/device.repository.ts';
import { MqttBridge } from './modules/mqtt/mqtt-bridge.ts';
import { eventBusFor, type EventBus } from './modules/events/event-bus.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { alarmsRoutes } from './modules/alarms/alarms.routes.ts';
import { AlarmExportService } from './modules/alarms/alarm-export.service.ts';
import { AlarmsService } from './modules/alarms/alarms.service.ts';
import { SilencesService } from './modules/alarms/silences.service.ts';
import { AlarmCommentsService } from './modules/alarms/comments.service.ts';
import { WebhooksService } from './modules/alarms/webhooks.service.ts';
import { addressPolicy } from './modules/alarms/webhook-transport.ts';
import { AlarmOutbox } from './modules/alarms/alarm-outbox.ts';
import { EmailNotifier, smtpTransport } from './modules/alarms/alarm-email.ts';
import { LiveStreams } from './modules/events/live-streams.ts';
import { opsRoutes } from './modules/ops/ops.routes.ts';
import { roisRoutes } from './modules/rois/rois.routes.ts';
import { RoiViewsService } from './modules/rois/roi-views.service.ts';
import { RoisService } from './modules/rois/rois.service.ts';
import { viewsRoutes } from './modules/views/views.routes.ts';
import { ecologyRoutes } from './modules/ecology/ecology.routes.ts';
import { taxaRoutes } from './modules/taxa/taxa.routes.ts';
import { TaxaService } from './modules/taxa/taxa.service.ts';
import { EcologyService } from './modules/ecology/ecology.service.ts';
import { completenessRoutes } from './modules/completeness/completeness.routes.ts';
import { labelHistoryRoutes } from './modules/label-history/label-history.routes.ts';
import { LabelHistoryService } from './modules/label-history/label-history.service.ts';
import { undoRoutes } from './modules/undo/undo.routes.ts';
import { UndoService } from './modules/undo/undo.service.ts';
import { CompletenessService } from './modules/completeness/completeness.service.ts';
import { trendsRoutes } from './modules/trends/trends.routes.ts';
import { TrendsService } from './modules/trends/trends.service.ts';
import { ViewsService } from './modules/views/views.service.ts';
import { bulkRoutes } from './modules/identify/bulk.routes.ts';
import { foldersRoutes } from './modules/identify/folders.routes.ts';
import { identifyRoutes } from './modules/identify/identify.routes.ts';
import { IdentifyService } from './modules/identify/identify.service.ts';
import { BulkService } from './modules/identify/bulk.service.ts';
import { FoldersService } from './modules/identify/folders.service.ts';
import { HiClassesService } from './modules/identify/hi-classes.service.ts';
import { RecycleBinService } from './modules/identify/recycle-bin.service.ts';
import { RoiEditsService } from './modules/identify/roi-edits.service.ts';
import { ToolbarService } from './modules/identify/toolbar.service.ts';
import { ReidentifyService } from './modules/identify/reidentify.service.ts';
import { OrphanSweeper } from './modules/rois/orphan-sweeper.ts';
import { RecycleSweeper } from './modules/identify/recycle-sweeper.ts';
import { ExportService } from './modules/transfer/export.service.ts';
import { transferRoutes } from './modules/transfer/transfer.routes.ts';
import { ImportUploadService } from './modules/transfer/import-upload.ts';
import { blobStoreOf } from './storage/s3-blobs.ts';
import { ensureDayRollups } from './modules/stats/rollups.repository.ts';
import { JobRunner } from './modules/recognition/job-runner.ts';
import { ModelStore } from './modules/recognition/model-store.ts';
import { RecognitionService } from './modules/recognition/recognition.service.ts';
import { ModelsService } from './modules/recognition/models.service.ts';
import { JobsService } from './modules/recognition/jobs.service.ts';
import { SimilarityService } from './modules/recognition/similarity.service.ts';
import { AbundanceService } from './modules/recognition/abundance.service.ts';
import { recognitionRootRoutes, recognitionRoutes } from './modules/recognition/recognition.routes.ts';
import { FeaturePool } from './modules/recognition/feature-pool.ts';
import { Recognizer } from './modules/recognition/recognizer.ts';
import { ReidentifyJob } from './modules/recognition/reidentify-job.ts';
import { SimilarityIndex } from './modules/recognition/similarity.ts';
import { TrainJob } from './modules/recognition/train-job.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The MQTT bridge when MQTT_URL is set (tests wait for it to be ready). */
    mqtt: MqttBridge | null;
    rois: RoisService;
    devices: DeviceService;
    /** Admission of instrument image uploads (back-pressure: 503/429 with Retry-After). */
    ingestGate: IngestGate;
    recycle: RecycleSweeper;
    orphans: OrphanSweeper;
    /** The recognition job queue (tests drain it; JOB_WORKER=on runs it in the background). */
    jobs: JobRunner;
    similarity: SimilarityIndex;
    /** Live events (tests publish and flush through it). */
    events: EventBus;
    liveStreams: LiveStreams;
    /** Alarm rules and alarms (tests evaluate through it). */
    alarms: AlarmsService;
    webhooks: WebhooksService;
    /** Alarm notices waiting to go out (tests deliver them with a moved clock). */
    alarmOutbox: AlarmOutbox;
  }
}

export interface BuildOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Serve the built web console (off in API tests). */
  serveWeb?: boolean;
  /** Where the request log goes (default stdout; tests read it to check what is logged). */
  logStream?: { write(line: string): void };
}

/** Builds the whole server as one Fastify instance; main.ts only listens. Tests call this and use app.inject. */
export async function buildApp({
  config,
  db,
  clock = systemClock,
  serveWeb = false,
  logStream,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Request logs never show a sign-in link's ?token= (issue 20).
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, serializers: { req: requestSerializer }, ...(logStream ? { stream: logStream } : {}) },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
    // Slow request bodies are cut (408 envelope), and parser-level errors (431, 400) answer the envelope too.
    requestTimeout: config.REQUEST_BODY_TIMEOUT_MS,
    http: httpServerOptions(config.REQUEST_BODY_TIMEOUT_MS),
    clientErrorHandler: clientErrorHandler(config.REQUEST_BODY_TIMEOUT_MS),
    // A path that is not valid percent-encoded UTF-8 never reaches a route: answer it with the envelope too (fuzzer).
    frameworkErrors: (error, request, reply) => {
      const lang = parseLang(request.headers['x-lang']);
      void sendFailure(reply, new AppError(ResultCode.BAD_PARAM, 'badUrl', {}, 'url'), lang);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerDeadline(app, { normalMs: config.REQUEST_DEADLINE_MS, longMs: config.LONG_REQUEST_DEADLINE_MS });
  registerSecurityHeaders(app);
  registerTextGuard(app);
  configurePasswordHashing({ concurrency: config.SCRYPT_CONCURRENCY, queue: config.SCRYPT_QUEUE });
  await calibratePasswordChecks(config.SCRYPT_LOG_N);

  const settings = new SettingsService(db, clock);
  const auth = new AuthService({
    db,
    clock,
    idleMs: async () => (await settings.get()).idle_minutes * 60_000,
    maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000,
  });
  const blobs = blobStoreOf(config);
  if (blobs.close) app.addHook('onClose', async () => blobs.close?.());
  await ensureDayRollups(db.kysely, db.dialect, config.STATS_UTC_OFFSET);
  const modelStore = new ModelStore(db);
  const similarity = new SimilarityIndex(db);
  const featurePool = new FeaturePool(config.FEATURE_WORKERS);
  app.addHook('onClose', () => featurePool.close());
  // The workers and their network are ready before the server listens, so the images instruments send right after a
  // (re)start are not held about a second each while a worker starts cold (FEATURE_WORKERS=0 in tests: nothing).
  app.addHook('onReady', () => featurePool.warm());
  const rois = new RoisService(
    db,
    clock,
    blobs,
    config.STATS_UTC_OFFSET,
    new Recognizer(db, modelStore, similarity, clock, featurePool),
  );
  const runner = new JobRunner(
    db,
    clock,
    {
      reidentify: new ReidentifyJob(db, clock, rois, blobs, modelStore, similarity, featurePool).run,
      train: new TrainJob(db, clock, blobs, modelStore).run,
    },
    app.log,
  );
  const recognition = {
    recognition: new RecognitionService(db, blobs, modelStore, similarity),
    models: new ModelsService(db, clock, modelStore, runner),
    jobs: new JobsService(db, clock),
    similarity: new SimilarityService(db, clock, blobs, similarity),
    abundance: new AbundanceService(db),
  };
  // Live events (issue 23): changes of stations and new images, pushed to the console's open pages.
  const bus = eventBusFor(db, (message) => app.log.warn(message));
  const streams = new LiveStreams(
    bus,
    {
      perUser: config.EVENT_STREAMS_PER_USER,
      max: config.EVENT_STREAMS_MAX,
      maxMs: config.EVENT_STREAM_MAX_MS,
      heartbeatMs: config.EVENT_HEARTBEAT_MS,
    },
    (sessionIds) => auth.openSessions(sessionIds),
  );
  // Before the server stops taking connections: open streams would keep its close waiting.
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => bus.close());
  const devices = new DeviceService(db, clock, settings, rois, config.STATS_UTC_OFFSET, bus);
  const ingestGate = new IngestGate({ inFlight: config.INGEST_IN_FLIGHT, perDevice: config.INGEST_PER_DEVICE });
  const ipps = new IppsService(db, clock, settings, config.STATS_UTC_OFFSET, bus);
  const alarms = new AlarmsService(db, clock, settings, bus, (error) => app.log.error(error, 'alarm evaluation failed'));
  devices.onReport((ippId) => alarms.stationReported(ippId));
  // Notices beyond the console: webhook posts and e-mails, through one outbox with retries.
  const notifyFailed = (error: unknown) => app.log.error(error, 'alarm notice failed');
  const webhooks = new WebhooksService(db, clock, (): AlarmOutbox => outbox, addressPolicy(config.WEBHOOK_ALLOW_HOSTS));
  const mailer = new EmailNotifier(
    clock,
    (): AlarmOutbox => outbox,
    config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null,
    config.ALARM_MAIL_FROM,
    config.PUBLIC_URL,
  );
  const outbox: AlarmOutbox = new AlarmOutbox(db, clock, { webhook: webhooks.deliver, email: mailer.deliver }, notifyFailed);
  alarms.useNotifier(webhooks);
  alarms.useNotifier(mailer);
  app.addHook('onReady', async () => {
    alarms.start(config.ALARM_CHECK_MS);
    outbox.start(config.WEBHOOK_POLL_MS);
  });
  app.addHook('preClose', async () => outbox.stop());
  // Before the bus closes: the last evaluations still publish.
  app.addHook('preClose', async () => alarms.stop());
  const views = new ViewsService(db, clock, settings, config.STATS_UTC_OFFSET);
  const undo = new UndoService(db, clock, rois);
  const bulk = new BulkService(db, clock, rois, undo);
  const folders = new FoldersService(db, clock, rois, new HiClassesService(db, clock));
  const identify = {
    identify: new IdentifyService(db, clock),
    bulk,
    folders,
    toolbar: new ToolbarService(db, clock),
    recycleBin: new RecycleBinService(db, rois, folders),
    roiEdits: new RoiEditsService(db, rois, bulk),
    reidentify: new ReidentifyService(db, clock, () => runner.poke()),
  };
  const sweeper = new RecycleSweeper(db, clock, rois, settings);
  sweeper.start((error) => app.log.error(error, 'recycle bin sweep failed'));
  app.addHook('onClose', async () => sweeper.stop());
  const orphans = new OrphanSweeper(db, blobs, config.ORPHAN_GRACE_MINUTES * 60_000);
  app.addHook('onClose', async () => orphans.stop());
  registerAccessControl(app, auth, devices.authenticate);
  registerExpensiveBounds(app, {
    perUser: config.EXPENSIVE_PER_USER,
    running: EXPENSIVE_RUNNING,
    waitMs: Math.min(EXPENSIVE_WAIT_MS, config.REQUEST_DEADLINE_MS),
  });

  const origins = config.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  await app.register(cors, {
    origin: origins.includes('*') ? true : origins,
    allowedHeaders: ['content-type', 'x-token', 'x-lang'],
    maxAge: 600,
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      // Paths carry their /api prefix: the server is the console's own origin.
      servers: [{ url: '/', description: 'This console' }],
      info: {
        title: 'IPP Console API',
        version: '0.1.0',
        description: 'Every call of the console. Envelope {code, data, model, count, index}; success code 1000.',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'X-Token' },
          deviceKey: { type: 'apiKey', in: 'header', name: 'X-Device-Key' },
        },
      },
      security: [{ token: [] }],
    },
    transform: openapiTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(multipart, { limits: { files: 1, fields: 10, parts: 12 } });
      await api.register(authRoutes(auth));
      await api.register(accountRoutes(new AccountService(db, clock, config.SCRYPT_LOG_N)));
      await api.register(teamsRoutes(new TeamsService(db, clock)));
      await api.register(usersRoutes(new UsersService(db, clock, settings, config.SCRYPT_LOG_N)));
      await api.register(settingsRoutes(settings, new SystemInfoService(db, clock()), config.DATA_DIR));
      await api.register(rolesRoutes(new RolesService(settings)));
      await api.register(translationsRoutes(new TranslationsService(db, clock)));
      await api.register(ippsRoutes(ipps));
      await api.register(eventsRoutes(streams));
      await api.register(
        alarmsRoutes(
          alarms,
          webhooks,
          mailer,
          new SilencesService(db, clock, (group) => alarms.evaluateGroupSoon(group)),
          new AlarmCommentsService(db, clock),
          new AlarmExportService(db, clock),
        ),
      );
      await api.register(deviceRoutes(devices, ingestGate));
      await api.register(viewsRoutes(views));
      await api.register(roisRoutes(new RoiViewsService(db, clock, settings, config.STATS_UTC_OFFSET), blobs));
      await api.register(ecologyRoutes(new EcologyService(db, clock, config.STATS_UTC_OFFSET)));
      await api.register(trendsRoutes(new TrendsService(db, clock, config.STATS_UTC_OFFSET)));
      await api.register(completenessRoutes(new CompletenessService(db, clock, config.STATS_UTC_OFFSET)));
      await api.register(taxaRoutes(new TaxaService(db, clock)));
      await api.register(identifyRoutes(identify));
      await api.register(bulkRoutes(identify));
      await api.register(foldersRoutes(identify));
      await api.register(labelHistoryRoutes(new LabelHistoryService(db)));
      await api.register(undoRoutes(undo));
      await api.register(
        transferRoutes(
          new ExportService(db, identify.identify, blobs),
          new ImportUploadService(db, rois, clock, `${config.DATA_DIR}/tmp`),
          clock,
        ),
      );
      await api.register(groupViewRoutes(new GroupViewService(db, clock)));
      await api.register(recognitionRoutes(recognition));
    },
    { prefix: '/api' },
  );
  await app.register(recognitionRootRoutes(recognition));
  if (config.JOB_WORKER === 'on') {
    app.addHook('onReady', async () => runner.start());
  }
  app.addHook('onClose', async () => runner.stop());

  const bridge = config.MQTT_URL
    ? new MqttBridge(
        config.MQTT_URL,
        config.MQTT_GROUP,
        devices,
        async () => (await allDeviceConfigs(db.kysely)).map(configDocument),
        app.log,
      )
    : null;
  if (bridge) {
    ipps.usePublisher(bridge);
    app.addHook('onClose', () => bridge.close());
  }
  app.decorate('mqtt', bridge);
  app.decorate('events', bus);
  app.decorate('alarms', alarms);
  app.decorate('webhooks', webhooks);
  app.decorate('alarmOutbox', outbox);
  app.decorate('liveStreams', streams);
  app.decorate('rois', rois);
  app.decorate('devices', devices);
  app.decorate('ingestGate', ingestGate);
  app.decorate('recycle', sweeper);
  app.decorate('orphans', orphans);
  app.decorate('jobs', runner);
  app.decorate('similarity', similarity);

  // The server's own health (issue 40): liveness, readiness, and Prometheus metrics behind a token or allow-list.
  opsRoutes(app, {
    db,
    token: config.METRICS_TOKEN,
    allow: new Set(
      config.METRICS_ALLOW.split(',')
        .map((a) => a.trim())
        .filter((a) => a !== ''),
    ),
    liveStreams: () => streams.size,
  });

  const webServed = serveWeb ? await registerWebApp(app, config.WEB_DIST) : false;
  registerNotFound(app, webServed);
  return app;
}
