import { PGliteDialect, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';

/**
 * Kysely's PGlite driver hands every caller the same connection, so a query issued by one request while another
 * request holds a transaction would run inside that transaction (and vanish with its rollback). This wrapper
 * gives the connection to one holder at a time: a lone query, or a whole transaction.
 */
class SerializedDriver implements Driver {
  #inner: Driver;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
    return this.#inner.acquireConnection();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.#inner.releaseConnection(connection);
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    return this.#inner.savepoint!(...args);
  }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    return this.#inner.rollbackToSavepoint!(...args);
  }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    return this.#inner.releaseSavepoint!(...args);
  }
  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

export class SerializedPGliteDialect extends PGliteDialect {
  override createDriver(): Driver {
    return new SerializedDriver(super.createDriver());
  }
}
