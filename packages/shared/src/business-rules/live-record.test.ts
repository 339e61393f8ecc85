import { describe, expect, it } from 'vitest';
import { formulasOf } from '../formula/index.ts';
import { computeWithRollups, LiveRecord, rollupsOf } from './index.ts';

// The form runtime evaluates only what an edit reaches (docs/decisions/0034); it must agree with the whole-record
// evaluation after every edit, on forms whose computed values chain through each other in every way the designer allows.

type Row = Record<string, unknown>;
type Control = { type: string; code: string; options?: Record<string, unknown>; controls?: Control[] };

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] };
}

/**
 * A form built in dependency order: each computed control reads only what came before it, so there is no cycle, and
 * chains go through every kind — main formulas over formulas, rollups, aggregates of columns; formula columns over
 * their row, the main table and the other sub-table; rollups (some filtered by a main-table value) over formula columns.
 */
function generateForm(seed: number) {
  const r = random(seed);
  const mainNumbers = ['In0', 'In1', 'In2', 'In3'];
  const texts = ['Txt'];
  const columns: Record<'A' | 'B', { numbers: string[]; texts: string[]; controls: Control[] }> = {
    A: { numbers: ['x', 'y'], texts: ['t'], controls: [{ type: 'number', code: 'x' }, { type: 'number', code: 'y' }, { type: 'textBox', code: 't' }] },
    B: { numbers: ['z'], texts: [], controls: [{ type: 'number', code: 'z' }] },
  };
  const main: Control[] = [...mainNumbers.map((code) => ({ type: 'number', code })), { type: 'textBox', code: 'Txt' }];
  const formula = (code: string, expression: string, bindType = 'decimal'): Control => ({ type: 'formula', code, options: { expression, bindType, decimalPlaces: 2 } });
  for (let i = 0; i < 24; i++) {
    const kind = r.pick(['main', 'main', 'column', 'column', 'rollup'] as const);
    const a = `{${r.pick(mainNumbers)}}`;
    const b = `{${r.pick(mainNumbers)}}`;
    if (kind === 'main') {
      const table = r.pick(['A', 'B'] as const);
      const col = `{${table}.${r.pick(columns[table].numbers)}}`;
      const code = `F${i}`;
      const expression = r.pick([
        `${a}+${b}*2`, `IF(${a}>${b},${a},${b})`, `ROUND(${a}/3,2)`, `SUM(${col})`, `AVG(${col})+${a}`, `COUNT(${col})`, `MAX(${col})-${b}`,
        `SUMIF({A.t},"甲",{A.${r.pick(columns.A.numbers)}})`, `LEN(CONCATENATE({${r.pick(texts)}},${a}))`,
      ]);
      main.push(formula(code, expression));
      mainNumbers.push(code);
    } else if (kind === 'column') {
      const table = r.pick(['A', 'B'] as const);
      const other = table === 'A' ? 'B' : 'A';
      const own = () => `{${table}.${r.pick(columns[table].numbers)}}`;
      const code = `C${i}`;
      const expression = r.pick([`${own()}*${own()}`, `${own()}+${a}`, `IF(${own()}>${a},1,0)`, `ROUND(${own()}*${a}/100,2)`, `SUM({${other}.${r.pick(columns[other].numbers)}})+${own()}`]);
      columns[table].controls.push(formula(code, expression));
      columns[table].numbers.push(code);
    } else {
      const table = r.pick(['A', 'B'] as const);
      const rollupType = r.pick(['sum', 'count', 'max', 'min', 'isNull', 'notNull'] as const);
      const field = r.pick(columns[table].numbers);
      const filter = r.pick(['', `{${table}.${field}}>=${r.int(6)}`, `{${table}.${r.pick(columns[table].numbers)}}>=${a}`]);
      const code = `R${i}`;
      main.push({ type: 'rollup', code, options: { rollupType, sourceCode: table, sourceField: rollupType === 'count' ? null : field, filter, decimalPlaces: 2 } });
      mainNumbers.push(code);
    }
  }
  // A formula calling TODAY() is evaluated on every edit, with what reads it.
  main.push(formula('Due', `ADDDAY(TODAY(),{${mainNumbers[1]}})`, 'datetime'));
  const grids: Control[] = (['A', 'B'] as const).map((code) => ({ type: 'gridView', code, controls: columns[code].controls }));
  return { controls: [...main.slice(0, 8), { type: 'layout', code: 'Box', controls: main.slice(8) }, ...grids], inputs: { main: ['In0', 'In1', 'In2', 'In3'], A: ['x', 'y'], B: ['z'] } };
}

/** The whole-record evaluation: computeWithRollups goes on until its rollups stop changing (rollups over formulas over rollups). */
function wholeRecord(controls: Control[], values: Row, children: Record<string, Row[]>) {
  return computeWithRollups(formulasOf(controls), rollupsOf(controls), values, children);
}

/** As stored: a missing value and null are both empty (a field the record never had reads as null). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)) : v)));

describe('LiveRecord', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    // The whole-record evaluation it is compared with takes most of the time (one pass per formula, until stable).
    it(`matches the whole-record evaluation after every one of 120 random edits (form ${seed})`, { timeout: 60_000 }, () => {
      const { controls, inputs } = generateForm(seed);
      const r = random(seed * 7919);
      const number = () => r.pick([null, '', 0, 1, 2, 3, 5, 8, 9, 12, '4.5', -3]);
      const row = (table: 'A' | 'B'): Row => Object.fromEntries([...inputs[table].map((c) => [c, number()]), ...(table === 'A' ? [['t', r.pick(['甲', '乙', null])]] : [])]);
      let values: Row = { In0: 1, In1: 2, In2: 3, In3: 4, Txt: '文本' };
      let children: Record<string, Row[]> = { A: Array.from({ length: 8 }, () => row('A')), B: Array.from({ length: 5 }, () => row('B')) };
      const live = new LiveRecord(controls);
      expect(plain(live.evaluate(values, children))).toEqual(plain(wholeRecord(controls, values, children)));
      let moved = 0;
      for (let edit = 0; edit < 120; edit++) {
        const before = plain(live.evaluate(values, children));
        const what = r.int(10);
        const table = r.pick(['A', 'B'] as const);
        const rows = children[table];
        if (what < 4) values = { ...values, [r.pick(inputs.main)]: number() };
        else if (what === 4) values = { ...values, Txt: r.pick(['甲', 'abc', '', null]) };
        else if (what < 8 && rows.length) {
          const i = r.int(rows.length);
          children = { ...children, [table]: rows.map((row, j) => (j === i ? { ...row, [r.pick(table === 'A' ? [...inputs.A, 't'] : inputs.B)]: number() } : row)) };
        } else if (what === 8) children = { ...children, [table]: [...rows.slice(0, r.int(rows.length + 1)), row(table), ...rows.slice(r.int(rows.length + 1))] };
        else if (rows.length) children = { ...children, [table]: rows.filter((_, j) => j !== r.int(rows.length)) };
        const after = plain(live.evaluate(values, children));
        expect(after, `edit ${edit}`).toEqual(plain(wholeRecord(controls, values, children)));
        if (JSON.stringify({ ...after, values: { ...after.values, ...values } }) !== JSON.stringify({ ...before, values: { ...before.values, ...values } })) moved++;
      }
      // The edits reach computed values (the comparisons are not of forms that never change).
      expect(moved).toBeGreaterThan(40);
    });
  }

  it('leaves its earlier results as they were, and gives the same result for the same values', () => {
    const { controls } = generateForm(9);
    const live = new LiveRecord(controls);
    const values = { In0: 1, In1: 2, In2: 3, In3: 4 };
    const children = { A: [{ x: 1, y: 2, t: '甲' }, { x: 3, y: 4, t: '乙' }], B: [{ z: 5 }] };
    const first = live.evaluate(values, children);
    const snapshot = plain(first);
    expect(live.evaluate(values, children)).toBe(first);
    live.evaluate({ ...values, In0: 9 }, { ...children, A: [children.A[0], { ...children.A[1], x: 7 }] });
    expect(plain(first)).toEqual(snapshot);
    expect(children.A[1]).toEqual({ x: 3, y: 4, t: '乙' });
  });

  it('evaluates formulas calling NOW, TODAY, RAND or NEWGUID on every change, with what reads them', () => {
    const controls = [
      { type: 'number', code: 'In' },
      { type: 'formula', code: 'Id', options: { expression: 'NEWGUID()', bindType: 'string' } },
      { type: 'formula', code: 'Tagged', options: { expression: 'CONCATENATE({Id},"!")', bindType: 'string' } },
    ];
    const live = new LiveRecord(controls);
    const first = live.evaluate({ In: 1 }, {}).values;
    const second = live.evaluate({ In: 2 }, {}).values;
    expect(second.Id).not.toBe(first.Id);
    expect(second.Tagged).toBe(`${second.Id}!`);
  });

  it('falls back to the whole record when the definition holds a cycle', () => {
    const controls = [
      { type: 'number', code: 'In' },
      { type: 'formula', code: 'A', options: { expression: '{B}+{In}' } },
      { type: 'formula', code: 'B', options: { expression: '{A}+1' } },
    ];
    const live = new LiveRecord(controls);
    expect(live.evaluate({ In: 1 }, {})).toEqual(computeWithRollups(formulasOf(controls), rollupsOf(controls), { In: 1 }, {}));
  });
});
