// Caches of the request context (docs/decisions/0032): per engine, entries valid for one version of a concept. A
// request passes the version its context statement read; an entry of another version is never answered. Loads run
// after that read, so what they store is at least as new as the version they are stored under.

interface Slot<V> {
  version: number;
  entries: Map<string, V>;
}

export class VersionedCache<V> {
  private readonly engines = new Map<string, Slot<V>>();

  constructor(
    private readonly maxEntriesPerEngine = 5000,
    private readonly maxEngines = 2000,
  ) {}

  /** The entry for `key` at `version`, loaded (and kept) when missing. */
  async get(engineCode: string, version: number, key: string, load: () => Promise<V>): Promise<V> {
    const slot = this.engines.get(engineCode);
    if (slot && slot.version === version && slot.entries.has(key)) return slot.entries.get(key)!;
    const value = await load();
    this.store(engineCode, version, key, value);
    return value;
  }

  /** Entries for many keys; the missing ones loaded in one call (`load` answers a value for every key it is given). */
  async getMany(engineCode: string, version: number, keys: string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const slot = this.engines.get(engineCode);
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of keys) {
      if (slot && slot.version === version && slot.entries.has(key)) found.set(key, slot.entries.get(key)!);
      else missing.push(key);
    }
    if (missing.length) {
      const loaded = await load(missing);
      for (const key of missing) {
        const value = loaded.get(key)!;
        found.set(key, value);
        this.store(engineCode, version, key, value);
      }
    }
    return found;
  }

  /** Forgets everything (a version source that may have missed changes). */
  clear(): void {
    this.engines.clear();
  }

  private store(engineCode: string, version: number, key: string, value: V): void {
    let slot = this.engines.get(engineCode);
    // Loaded under an older version than the slot's: answer it, keep the newer slot.
    if (slot && slot.version > version) return;
    if (!slot || slot.version < version) {
      slot = { version, entries: new Map() };
      this.engines.delete(engineCode);
      if (this.engines.size >= this.maxEngines) this.engines.delete(this.engines.keys().next().value!);
      this.engines.set(engineCode, slot);
    }
    if (slot.entries.size >= this.maxEntriesPerEngine) slot.entries.clear();
    slot.entries.set(key, value);
  }
}
