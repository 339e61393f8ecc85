// Votes lined up for one instance (docs/decisions/0109). The votes on one instance queue on its row lock, and each
// commits on its own, so a countersign of many people advances one vote per transaction (one WAL flush, one lock and
// read of every item, one write each). A vote that finds the instance held by a transaction of this process joins
// that transaction's line instead; when the transaction ends, the votes waiting in the line are applied together in
// one transaction of their own, and so on until none waits. Pure bookkeeping: what a vote is and how votes are
// applied together belong to the caller.

export interface Waiting<V, R> {
  vote: V;
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
}

/**
 * `together` applies the votes given (in their order) in one transaction and settles each of them, except the ones it
 * answers back: those wait for the next round (a vote that moved the instance past where the others were cast ends
 * a round). Should it throw, every vote it was given is rejected with the error.
 */
export class VoteLines<V, R> {
  private readonly lines = new Map<string, Waiting<V, R>[]>();
  constructor(private readonly together: (waiting: Waiting<V, R>[]) => Promise<Waiting<V, R>[]>) {}

  /** Opens the line of `key` unless it is open: true when this call opened it (the caller must `release` it). */
  open(key: string): boolean {
    if (this.lines.has(key)) return false;
    this.lines.set(key, []);
    return true;
  }

  /** The vote's answer, once it was applied in the open line of `key`; undefined when no line is open there. */
  join(key: string, vote: V): Promise<R> | undefined {
    const line = this.lines.get(key);
    if (!line) return undefined;
    return new Promise<R>((resolve, reject) => line.push({ vote, resolve, reject }));
  }

  /** Runs `first` as the line's first vote (opening the line when none is open), then releases the line if it opened it. */
  async lead<T>(key: string, first: () => Promise<T>): Promise<T> {
    const opened = this.open(key);
    try {
      return await first();
    } finally {
      if (opened) this.release(key);
    }
  }

  /**
   * The opener's transaction is over: the votes that joined meanwhile are applied together, round after round (new
   * votes keep joining), and the line closes when none waits. Runs in the background; answers at once.
   */
  release(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    if (!line.length) {
      this.lines.delete(key);
      return;
    }
    const round = line.splice(0);
    this.together(round)
      .then(
        (left) => line.unshift(...left),
        (error: unknown) => {
          for (const w of round) w.reject(error);
        },
      )
      .finally(() => this.release(key));
  }

  /** How many lines are open (tests). */
  get size(): number {
    return this.lines.size;
  }
}
