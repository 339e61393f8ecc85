import { describe, expect, it } from 'vitest';
import { VoteLines, type Waiting } from './vote-lines.ts';

// The line of votes waiting for one instance (docs/decisions/0109), without a database: who joins, in what order the
// rounds take them, what happens to the votes a round answers back, and that a line closes once none waits.

type W = Waiting<string, string>;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('vote lines', () => {
  it('a vote joins only an open line', () => {
    const lines = new VoteLines<string, string>(async () => []);
    expect(lines.join('i1', 'a')).toBeUndefined();
    expect(lines.open('i1')).toBe(true);
    expect(lines.open('i1')).toBe(false);
    expect(lines.join('i1', 'a')).toBeInstanceOf(Promise);
    expect(lines.join('i2', 'a')).toBeUndefined();
  });

  it('the votes that joined while the line was held are applied together, in order, then the line closes', async () => {
    const rounds: string[][] = [];
    const lines = new VoteLines<string, string>(async (waiting: W[]) => {
      rounds.push(waiting.map((w) => w.vote));
      for (const w of waiting) w.resolve(`${w.vote}!`);
      return [];
    });
    const first = lines.lead('i1', async () => {
      await settle();
      return 'first';
    });
    const joined = ['a', 'b', 'c'].map((v) => lines.join('i1', v)!);
    expect(await first).toBe('first');
    expect(await Promise.all(joined)).toEqual(['a!', 'b!', 'c!']);
    expect(rounds).toEqual([['a', 'b', 'c']]);
    await settle();
    expect(lines.size).toBe(0);
  });

  it('votes a round answers back wait for the next round, ahead of the ones that joined since', async () => {
    const rounds: string[][] = [];
    let late: Promise<string> | undefined;
    const lines: VoteLines<string, string> = new VoteLines<string, string>(async (waiting: W[]) => {
      rounds.push(waiting.map((w) => w.vote));
      // The first vote of a round moves the instance on: the rest go to the next round.
      waiting[0]!.resolve(waiting[0]!.vote);
      late ??= lines.join('i1', 'late');
      return waiting.slice(1);
    });
    expect(lines.open('i1')).toBe(true);
    const votes = ['a', 'b', 'c'].map((v) => lines.join('i1', v)!);
    lines.release('i1');
    expect(await Promise.all([...votes, late])).toEqual(['a', 'b', 'c', 'late']);
    expect(rounds).toEqual([['a', 'b', 'c'], ['b', 'c', 'late'], ['c', 'late'], ['late']]);
    await settle();
    expect(lines.size).toBe(0);
  });

  it('a round that fails rejects its votes, and the line still closes', async () => {
    const lines = new VoteLines<string, string>(async () => {
      throw new Error('the database went away');
    });
    expect(lines.open('i1')).toBe(true);
    const vote = lines.join('i1', 'a')!;
    lines.release('i1');
    await expect(vote).rejects.toThrow('the database went away');
    await settle();
    expect(lines.size).toBe(0);
  });

  it('the line of a first vote that fails is released all the same', async () => {
    const lines = new VoteLines<string, string>(async (waiting: W[]) => {
      for (const w of waiting) w.resolve('applied');
      return [];
    });
    const first = lines.lead('i1', async () => {
      await settle();
      throw new Error('refused');
    });
    const joined = lines.join('i1', 'a')!;
    await expect(first).rejects.toThrow('refused');
    expect(await joined).toBe('applied');
  });
});
