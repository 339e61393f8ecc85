import pg from 'pg';

/**
 * A PostgreSQL connection of its own, outside the pool, for what lives as long as the connection: LISTEN, a session
 * advisory lock, session settings. When the server closes it (restart, failover, terminated backend) it connects
 * again with a growing pause and runs `setup` again, so the LISTEN or the lock is back without anyone asking
 * (docs/decisions/0027). Never ends the process: every error is reported through `log` and retried.
 *
 * Notifications sent while the connection was down are lost: `onReconnect` tells the owner, who should treat all it
 * caches as stale (a cache listener drops everything, a lock holder re-checks what it guards).
 */
export interface DedicatedConnectionOptions {
  connectionString: string;
  /** Names the connection in the log and in pg_stat_activity (application_name). */
  name: string;
  /** Runs on every new connection before it counts as up: LISTEN, pg_advisory_lock, SET. A throw means "retry". */
  setup(client: pg.Client): Promise<void>;
  onNotification?(message: pg.Notification): void;
  /** Called after a connection that replaces a lost one has been set up. */
  onReconnect?(): void;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** Pause before the first retry and the largest pause (doubles in between); default 100 ms and 5 s. */
  backoff?: { initialMs: number; maxMs: number };
  connectTimeoutMs?: number;
}

export interface DedicatedConnection {
  /** Resolves once the first connection is up and set up (retrying until then); rejects only when closed first. */
  ready(): Promise<void>;
  /** The client while the connection is up; undefined during a reconnect. */
  client(): pg.Client | undefined;
  /** How many times the connection was lost and set up again. */
  reconnects(): number;
  close(): Promise<void>;
}

export function openDedicatedConnection(options: DedicatedConnectionOptions): DedicatedConnection {
  const backoff = options.backoff ?? { initialMs: 100, maxMs: 5_000 };
  let current: pg.Client | undefined;
  let closed = false;
  let pause = backoff.initialMs;
  let lost = 0;
  let everUp = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let resolveReady!: () => void;
  let rejectReady!: (error: Error) => void;
  const readyPromise = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  readyPromise.catch(() => undefined);

  function scheduleRetry() {
    if (closed || retryTimer) return;
    const wait = pause;
    pause = Math.min(backoff.maxMs, pause * 2);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, wait);
    retryTimer.unref?.();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.name,
      keepAlive: true,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    });
    let gone = false;
    const onLoss = (error?: Error) => {
      if (gone) return;
      gone = true;
      if (current === client) current = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (closed) return;
      if (error) options.log?.warn({ err: error, connection: options.name }, 'dedicated database connection lost; reconnecting');
      scheduleRetry();
    };
    // A listener from the start: an 'error' nobody hears would end the process.
    client.on('error', (error) => onLoss(error));
    client.on('end', () => onLoss());
    try {
      await client.connect();
      if (options.onNotification) client.on('notification', (message) => options.onNotification!(message));
      await options.setup(client);
    } catch (error) {
      options.log?.warn({ err: error, connection: options.name }, 'dedicated database connection could not be set up; retrying');
      onLoss();
      return;
    }
    if (gone) return;
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    pause = backoff.initialMs;
    if (everUp) {
      lost += 1;
      options.log?.info?.({ connection: options.name }, 'dedicated database connection restored');
      options.onReconnect?.();
    }
    everUp = true;
    resolveReady();
  }

  void connect();

  return {
    ready: () => readyPromise,
    client: () => current,
    reconnects: () => lost,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      rejectReady(new Error(`dedicated connection ${options.name} closed`));
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
