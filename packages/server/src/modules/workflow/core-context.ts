import type { WorkflowTemplate } from '@tritium/shared/workflow/index';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { CoreContext } from './workflow.core-types.ts';
import { administratorsOf, resolveSources } from './participants.ts';
import { readRecordRow } from './record-status.ts';

// What the pure core may ask of the world — the record's values, a node's participants, the administrators — read
// only when the action asks (docs/decisions/0035). An approval that does not move its node reads none of them; one
// that activates a node reads that node's participants, not every node's. The core is pure and synchronous: when it
// asks for something not read yet, it stops (Needed), the thing is read in the same transaction, and it runs again
// from the same input (same time; ids are fresh, nothing was written).

class Needed extends Error {
  constructor(readonly what: { values: true } | { administrators: true } | { participants: string }) {
    super('the workflow core needs a read');
  }
}

export class LazyCore {
  private values?: Record<string, unknown>;
  private administrators?: string[];
  private readonly participants = new Map<string, string[]>();
  constructor(
    private readonly edb: EngineExecutor,
    private readonly template: WorkflowTemplate,
    private readonly instance: { schemaCode: string; objectId: string; originator: string },
    /** The action's time: the system clock, or the scheduler's when a time limit acts (docs/decisions/0042). */
    private readonly now: Date = new Date(),
  ) {}

  private context(): CoreContext {
    const self = this;
    return {
      now: this.now,
      newId,
      template: this.template,
      get values() {
        if (!self.values) throw new Needed({ values: true });
        return self.values;
      },
      participantsOf(code: string) {
        const found = self.participants.get(code);
        if (!found) throw new Needed({ participants: code });
        return found;
      },
      get administrators() {
        if (!self.administrators) throw new Needed({ administrators: true });
        return self.administrators;
      },
    };
  }

  private async read(what: Needed['what']): Promise<void> {
    if ('values' in what) {
      this.values = (await readRecordRow(this.edb, this.instance.schemaCode, this.instance.objectId)) ?? {};
      return;
    }
    if ('administrators' in what) {
      this.administrators = await administratorsOf(this.edb);
      return;
    }
    const a = this.template.activities.find((x) => x.code === what.participants);
    const sources = a && 'participants' in a ? a.participants.sources : [];
    if (!this.values && sources.some((s) => s.type === 'field')) await this.read({ values: true });
    this.participants.set(what.participants, await resolveSources(this.edb, sources, { originator: this.instance.originator, values: this.values ?? {} }));
  }

  /** Runs the pure `work` until it asks for nothing it has not been given. */
  async run<T>(work: (core: CoreContext) => T): Promise<T> {
    for (;;) {
      try {
        return work(this.context());
      } catch (error) {
        if (!(error instanceof Needed)) throw error;
        await this.read(error.what);
      }
    }
  }
}
