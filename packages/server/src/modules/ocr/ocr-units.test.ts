import { describe, expect, it } from 'vitest';
import { charactersOf, ctcGreedyDecode } from './ctc-decode.ts';
import { boxesFromMap, minAreaRect, readingOrder, regionsOf, unclip } from './text-boxes.ts';
import { applyRules, candidatesOf, patternProblem, templateProblems } from './template-rules.ts';
import { BUILTIN_TEMPLATES } from './builtin-templates.ts';

// The pure parts of OCR (docs/decisions/0125): detection's post-processing on hand-made probability maps, CTC greedy
// decoding on hand-made step probabilities, and a template's rules over hand-made lines.

/** A width × height map with the given rectangles (x, y, w, h) at probability p. */
function mapWith(width: number, height: number, rects: [number, number, number, number, number?][]): Float32Array {
  const map = new Float32Array(width * height);
  for (const [x, y, w, h, p = 0.9] of rects) for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) map[j * width + i] = p;
  return map;
}

describe('detection post-processing', () => {
  it('groups pixels over the threshold into 8-connected regions', () => {
    const map = mapWith(20, 10, [[1, 1, 3, 2], [4, 3, 2, 2], [12, 5, 4, 3]]);
    // The first two touch at a corner (8-connected): two regions.
    expect(regionsOf(map, 20, 10, 0.3).map((r) => r.count).sort((a, b) => a - b)).toEqual([10, 12]);
  });

  it('finds the minimum-area rectangle of a tilted line', () => {
    const angle = (15 * Math.PI) / 180;
    const points = [];
    for (let u = 0; u <= 100; u += 5) for (const v of [0, 20]) points.push({ x: 50 + u * Math.cos(angle) - v * Math.sin(angle), y: 50 + u * Math.sin(angle) + v * Math.cos(angle) });
    const box = minAreaRect(points);
    expect(box.angle).toBeCloseTo(angle, 5);
    expect(box.width).toBeCloseTo(100, 5);
    expect(box.height).toBeCloseTo(20, 5);
  });

  it('grows a box by area × ratio / perimeter on every side', () => {
    const grown = unclip(minAreaRect([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 20 }, { x: 0, y: 20 }]), 1.5);
    // d = 100·20·1.5 / 240 = 12.5
    expect(grown.width).toBeCloseTo(125, 5);
    expect(grown.height).toBeCloseTo(45, 5);
  });

  it('keeps regions by mean probability and size, and answers boxes in map pixels', () => {
    const map = mapWith(200, 60, [[10, 10, 80, 10, 0.9], [110, 10, 60, 10, 0.4], [10, 40, 2, 2, 0.95]]);
    const boxes = boxesFromMap(map, 200, 60, { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSide: 3, maxBoxes: 10 });
    // The faint one (0.4) and the 2×2 speck are dropped.
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.cx).toBeCloseTo(50, 0);
    expect(boxes[0]!.cy).toBeCloseTo(15, 0);
    expect(boxes[0]!.width).toBeGreaterThan(80);
    expect(boxes[0]!.score).toBeCloseTo(0.9, 5);
  });

  it('reads rows top to bottom and left to right within a row', () => {
    const box = (cx: number, cy: number, name: string) => ({ cx, cy, width: 40, height: 20, angle: 0, name });
    const order = readingOrder([box(300, 103, 'b'), box(100, 100, 'a'), box(100, 160, 'c'), box(300, 158, 'd')]);
    expect(order.map((b) => b.name)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('CTC greedy decoding', () => {
  const characters = charactersOf('发\n票\n1\n2\n');
  it('has the blank first and the space last', () => {
    expect(characters).toEqual(['', '发', '票', '1', '2', ' ']);
  });

  it('drops blanks and repeats, keeps a repeat separated by a blank, averages the kept probabilities', () => {
    // Steps: 发 发 blank 票 1 blank 1 2 2
    const classes = characters.length;
    const steps = [1, 1, 0, 2, 3, 0, 3, 4, 4];
    const probs = new Float32Array(steps.length * classes);
    steps.forEach((c, t) => {
      probs[t * classes + c] = c === 2 ? 0.6 : 0.9;
      probs[t * classes + ((c + 1) % classes)] = 0.05;
    });
    const [line] = ctcGreedyDecode(probs, 1, steps.length, classes, characters);
    expect(line!.text).toBe('发票112');
    expect(line!.confidence).toBeCloseTo((0.9 + 0.6 + 0.9 + 0.9 + 0.9) / 5, 5);
  });

  it('decodes a batch line by line', () => {
    const classes = characters.length;
    const probs = new Float32Array(2 * 2 * classes);
    probs[0 * classes + 1] = 1; // line 1: 发, blank
    probs[1 * classes + 0] = 1;
    probs[2 * classes + 0] = 1; // line 2: blank, blank
    probs[3 * classes + 0] = 1;
    expect(ctcGreedyDecode(probs, 2, 2, classes, characters)).toEqual([{ text: '发', confidence: 1 }, { text: '', confidence: 0 }]);
  });
});

describe('template rules', () => {
  const line = (text: string, left: number, top: number, width = 300, height = 30) => ({ text, confidence: 0.99, box: [[left, top], [left + width, top], [left + width, top + height], [left, top + height]] as [number, number][] });
  const invoice = [
    line('发票代码：044031900111', 40, 100),
    line('发票号码：12345678', 500, 100),
    line('开票日期：2026年11月20日', 40, 160),
    line('购买方名称', 40, 220, 150),
    line('深圳市星辰科技有限公司', 40, 260),
    line('价税合计（小写）', 40, 320, 200),
    line('¥1,130.00', 260, 322, 120),
  ];

  it('takes a value after its label, to the right on the same row, or below', () => {
    const fields = BUILTIN_TEMPLATES.find((t) => t.templateCode === 'vatInvoice')!.fields;
    const read = Object.fromEntries(applyRules(fields, invoice).map((f) => [f.code, f.value]));
    expect(read).toMatchObject({ invoiceCode: '044031900111', invoiceNumber: '12345678', issueDate: '2026年11月20日', buyerName: '深圳市星辰科技有限公司', totalAmount: '1,130.00', taxAmount: null });
  });

  it('honours direction and length limits, and searches every line without a label', () => {
    const base = { anchors: ['购买方名称'], pattern: null, minLength: null, maxLength: null };
    expect(candidatesOf({ code: 'a', name: 'a', direction: 'right', ...base }, invoice)).toEqual([]);
    expect(candidatesOf({ code: 'a', name: 'a', direction: 'below', ...base }, invoice)).toEqual(['深圳市星辰科技有限公司']);
    const short = applyRules([{ code: 'a', name: 'a', direction: 'below', ...base, maxLength: 5 }], invoice);
    expect(short[0]!.value).toBeNull();
    const id = applyRules([{ code: 'id', name: '号码', direction: 'any', anchors: [], pattern: '号码：(\\d{8})', minLength: null, maxLength: null }], invoice);
    expect(id[0]!.value).toBe('12345678');
  });

  it('refuses patterns that could backtrack without end, and stops one that runs too long', () => {
    expect(patternProblem('(a+)+b')).toMatch(/量词/);
    expect(patternProblem('(?:x|y*)*z')).toMatch(/量词/);
    expect(patternProblem('(a)\\1')).toMatch(/反向引用/);
    expect(patternProblem('[')).toMatch(/无法解析/);
    expect(patternProblem('x'.repeat(121))).toMatch(/120/);
    expect(patternProblem('\\d{17}[\\dXx]')).toBeNull();
    expect(patternProblem('(\\d+)元')).toBeNull();
    expect(templateProblems([{ code: 'a', name: 'a', direction: 'any', anchors: [], pattern: null, minLength: null, maxLength: null }])).toMatchObject({ field: 'a' });
    // A pattern saved before these checks (or slipping past them) still costs at most the time budget.
    const started = Date.now();
    const slow = applyRules([{ code: 'x', name: 'x', direction: 'any', anchors: [], pattern: '^(\\w|\\w\\w)*$', minLength: null, maxLength: null }], [line(`${'a'.repeat(60)}!`, 0, 0)]);
    expect(slow[0]).toMatchObject({ value: null, problem: '正则表达式运行超时' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
