/**
 * OCR accuracy benchmark (issue 45, docs/decisions/0125): pictures of known Chinese, English and number lines drawn
 * in the machine's CJK font (WenQuanYi Micro Hei) at varied sizes and places, read by the OCR worker exactly as the
 * server reads an upload (no network). Character accuracy = 1 − edit distance / length of the expected text (white
 * space ignored on both sides, the lines in reading order), and the time per picture.
 * Run: node --import tsx bench/ocr-accuracy.ts   (BENCH_OCR_IMAGES=200 by default; writes bench/results/ocr-accuracy.json
 * and the "OCR on the machine" section of docs/performance.md)
 */
import os from 'node:os';
import { readPictureText, stopOcr } from '../packages/server/src/modules/ocr/ocr-runner.ts';
import { textPicture } from '../packages/server/src/modules/ocr/text-picture.ts';
import { saveResult, writePerformanceSection } from './lib.ts';

const IMAGES = Number(process.env.BENCH_OCR_IMAGES ?? 200);

/** A small deterministic generator, so every run reads the same pictures. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = random(45);
const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');

const CITIES = ['杭州', '深圳', '上海', '北京', '成都', '武汉', '南京', '苏州', '宁波', '厦门', '青岛', '西安'];
const WORDS = ['星辰', '明远', '华信', '恒通', '瑞丰', '金桥', '天成', '博雅', '安达', '云帆', '汇能', '鼎盛'];
const KINDS = ['科技有限公司', '贸易有限公司', '五金制品厂', '物流股份有限公司', '建设工程有限公司', '医疗器械有限公司'];
const ITEMS = ['办公用品采购', '设备维修服务', '差旅住宿费用', '软件技术服务费', '原材料运输费', '会议场地租赁'];
const ROADS = ['人民路', '解放大道', '中山北路', '科技园南区', '滨江大道', '建设西路'];
const EN = ['Invoice No', 'Total Amount', 'Purchase Order', 'Delivery Date', 'Unit Price', 'Tax Rate', 'Bank Account', 'Customer ID', 'Quantity', 'Payment Due'];

function chineseLine(): string {
  switch (Math.floor(rnd() * 3)) {
    case 0:
      return `${pick(CITIES)}市${pick(WORDS)}${pick(KINDS)}`;
    case 1:
      return `${pick(CITIES)}市${pick(ROADS)}${1 + Math.floor(rnd() * 300)}号`;
    default:
      return `${pick(ITEMS)}共计${1 + Math.floor(rnd() * 9000)}元`;
  }
}
function englishLine(): string {
  return `${pick(EN)}: ${String.fromCharCode(65 + Math.floor(rnd() * 26))}${String.fromCharCode(65 + Math.floor(rnd() * 26))}${digits(6)}`;
}
function numberLine(): string {
  switch (Math.floor(rnd() * 3)) {
    case 0:
      return `20${digits(2)}-${1 + Math.floor(rnd() * 12)}-${1 + Math.floor(rnd() * 28)}`;
    case 1:
      return `${digits(1).replace('0', '1')}${digits(4)}.${digits(2)}`;
    default:
      return `1${3 + Math.floor(rnd() * 6)}${digits(9)}`;
  }
}

function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

interface Tally {
  chars: number;
  errors: number;
}
const tallies: Record<'chinese' | 'english' | 'numbers', Tally> = { chinese: { chars: 0, errors: 0 }, english: { chars: 0, errors: 0 }, numbers: { chars: 0, errors: 0 } };
const times: number[] = [];
const misses: string[] = [];

// Warm-up: the worker loads the models (timed apart).
const loadStarted = performance.now();
await readPictureText(await textPicture(200, 60, [{ text: '预热', x: 20, y: 40 }]));
const loadMs = performance.now() - loadStarted;

for (let n = 0; n < IMAGES; n++) {
  const kinds = [pick(['chinese', 'chinese', 'english', 'numbers'] as const), pick(['chinese', 'english', 'numbers'] as const)];
  const texts = kinds.map((k) => (k === 'chinese' ? chineseLine() : k === 'english' ? englishLine() : numberLine()));
  const size = 20 + Math.floor(rnd() * 14);
  const picture = await textPicture(
    720,
    60 + texts.length * (size + 30),
    texts.map((text, i) => ({ text, x: 20 + Math.floor(rnd() * 60), y: 50 + i * (size + 30), size })),
  );
  const started = performance.now();
  const read = await readPictureText(picture);
  times.push(performance.now() - started);
  // Each expected line against the read line nearest its place (reading order: the same index), white space ignored.
  texts.forEach((text, i) => {
    const expected = squeeze(text);
    const got = squeeze(read.lines[i]?.text ?? '');
    const errors = Math.min(expected.length, editDistance(expected, got));
    tallies[kinds[i]!].chars += expected.length;
    tallies[kinds[i]!].errors += errors;
    if (errors && misses.length < 12) misses.push(`${text} → ${read.lines[i]?.text ?? '（未识别）'}`);
  });
}
await stopOcr();

const all = Object.values(tallies).reduce((a, t) => ({ chars: a.chars + t.chars, errors: a.errors + t.errors }), { chars: 0, errors: 0 });
const accuracy = (t: Tally) => (t.chars ? (1 - t.errors / t.chars) * 100 : 100);
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
const mean = times.reduce((a, b) => a + b, 0) / times.length;
const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
const figures = {
  images: IMAGES,
  characters: all.chars,
  accuracyPct: Number(accuracy(all).toFixed(2)),
  byKind: Object.fromEntries(Object.entries(tallies).map(([k, t]) => [k, { chars: t.chars, accuracyPct: Number(accuracy(t).toFixed(2)) }])),
  msPerImage: { median: Math.round(median), mean: Math.round(mean), p95: Math.round(p95) },
  modelLoadMs: Math.round(loadMs),
  misses,
};
saveResult('ocr-accuracy', figures);
writePerformanceSection('OCR on the machine', [
  '## OCR on the machine',
  '',
  `\`node --import tsx bench/ocr-accuracy.ts\` (docs/decisions/0125), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (shared with other work while measured), Node ${process.version}.`,
  `${IMAGES} generated pictures (720 px wide, two lines each: Chinese names, addresses and amounts, English labels with codes, dates, amounts and phone numbers; WenQuanYi Micro Hei at 20–33 px), read by the OCR worker thread (PP-OCRv4 detection + recognition on onnxruntime-web, one WebAssembly thread), no network.`,
  '',
  '| Text | Characters | Character accuracy |',
  '|---|---:|---:|',
  ...Object.entries(tallies).map(([k, t]) => `| ${k} | ${t.chars} | ${accuracy(t).toFixed(2)} % |`),
  `| **all** | ${all.chars} | **${accuracy(all).toFixed(2)} %** |`,
  '',
  `Time per picture (detection, two lines recognised, decoding): median ${Math.round(median)} ms, mean ${Math.round(mean)} ms, 95th percentile ${Math.round(p95)} ms. Loading the models in a new worker: ${Math.round(loadMs)} ms (once per process, then kept until 10 minutes idle).`,
  '',
  misses.length ? `Examples of misreadings: ${misses.map((m) => `“${m}”`).join('；')}.` : 'No line was misread.',
  '',
]);
