import type { contracts } from '@tritium/shared';

// Results of widget statements (docs/decisions/0044), one cache per app (two server processes never share one; each
// checks the data versions in the database, so neither answers what the other's writes changed). The key is the
// engine, the statement's text and parameters (widget, filters, the viewer's scope are all in them) and the versions of
// the tables it read; a changed table makes new keys and the old entries age out.

type Result = Omit<contracts.ReportDataResult, 'cached'>;

export class ReportCache {
  private readonly entries = new Map<string, Result>();

  constructor(private readonly maxEntries = 2000) {}

  get(key: string): Result | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: the oldest entry is the first to go.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Result): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
