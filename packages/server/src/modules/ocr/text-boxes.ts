// Text detection's post-processing (docs/decisions/0125): the detection model (PaddleOCR's DB, differentiable
// binarisation) answers, for every pixel of the scaled picture, how likely it lies on text. Here that map becomes
// boxes: pixels over a threshold, grouped into connected regions; each region's minimum-area rectangle, kept when the
// region's mean probability is high enough, then grown ("unclipped") by the model's shrink ratio, since the model was
// trained to mark a line's shrunken core. Pure functions, so they are tested on hand-made maps.

export interface Point {
  x: number;
  y: number;
}

/** A rotated rectangle: centre, width along `angle` (radians), height across it, and its corners clockwise from top-left. */
export interface RotatedBox {
  cx: number;
  cy: number;
  width: number;
  height: number;
  angle: number;
  corners: [Point, Point, Point, Point];
}

export interface DetectedBox extends RotatedBox {
  score: number;
}

export interface BoxOptions {
  /** A pixel is text above this probability. */
  threshold: number;
  /** A region is kept when its mean probability is at least this. */
  boxThreshold: number;
  /** The growth: distance = area × ratio / perimeter, added on every side. */
  unclipRatio: number;
  /** Regions with a shorter side than this (before growing, in map pixels) are noise. */
  minSide: number;
  /** At most this many regions are kept (the most probable). */
  maxBoxes: number;
}

export const DEFAULT_BOX_OPTIONS: BoxOptions = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.6, minSide: 3, maxBoxes: 300 };

interface Region {
  /** Per row the region covers: the leftmost and rightmost pixel (enough for its convex hull). */
  rows: Map<number, [number, number]>;
  sum: number;
  count: number;
}

/** The 8-connected regions of pixels above `threshold` in a width × height map. */
export function regionsOf(map: Float32Array, width: number, height: number, threshold: number): Region[] {
  const seen = new Uint8Array(width * height);
  const regions: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || !(map[start]! > threshold)) continue;
    const region: Region = { rows: new Map(), sum: 0, count: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      region.sum += map[at]!;
      region.count++;
      const span = region.rows.get(y);
      if (!span) region.rows.set(y, [x, x]);
      else {
        if (x < span[0]) span[0] = x;
        if (x > span[1]) span[1] = x;
      }
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const next = ny * width + nx;
          if (seen[next] || !(map[next]! > threshold)) continue;
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    regions.push(region);
  }
  return regions;
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** The convex hull (counter-clockwise in image coordinates' sense of the monotone chain), without repeated points. */
export function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The rotated rectangle of least area around the points (rotating calipers over the hull's edges). */
export function minAreaRect(points: Point[]): RotatedBox {
  const hull = convexHull(points);
  let best: { area: number; angle: number; minU: number; maxU: number; minV: number; maxV: number } | null = null;
  const edges = hull.length < 2 ? [0] : hull.map((p, i) => Math.atan2(hull[(i + 1) % hull.length]!.y - p.y, hull[(i + 1) % hull.length]!.x - p.x));
  for (const raw of edges) {
    // Fold every edge direction into (-45°, 45°], so "width" runs along the line of text where the box is wider.
    let angle = raw;
    while (angle > Math.PI / 4) angle -= Math.PI / 2;
    while (angle <= -Math.PI / 4) angle += Math.PI / 2;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const u = p.x * cos + p.y * sin;
      const v = -p.x * sin + p.y * cos;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (!best || area < best.area - 1e-9) best = { area, angle, minU, maxU, minV, maxV };
  }
  const b = best!;
  const cu = (b.minU + b.maxU) / 2;
  const cv = (b.minV + b.maxV) / 2;
  const cos = Math.cos(b.angle);
  const sin = Math.sin(b.angle);
  return rectangle(cu * cos - cv * sin, cu * sin + cv * cos, b.maxU - b.minU, b.maxV - b.minV, b.angle);
}

/** A rotated rectangle from its centre, sides and angle. */
export function rectangle(cx: number, cy: number, width: number, height: number, angle: number): RotatedBox {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const at = (u: number, v: number): Point => ({ x: cx + u * cos - v * sin, y: cy + u * sin + v * cos });
  const w = width / 2;
  const h = height / 2;
  return { cx, cy, width, height, angle, corners: [at(-w, -h), at(w, -h), at(w, h), at(-w, h)] };
}

/** The rectangle grown on every side by area × ratio / perimeter (the model marks the shrunken core of a line). */
export function unclip(box: RotatedBox, ratio: number): RotatedBox {
  const perimeter = 2 * (box.width + box.height);
  const distance = perimeter > 0 ? (box.width * box.height * ratio) / perimeter : 0;
  return rectangle(box.cx, box.cy, box.width + 2 * distance, box.height + 2 * distance, box.angle);
}

/** The boxes of text in a probability map, in the map's pixels. */
export function boxesFromMap(map: Float32Array, width: number, height: number, options: BoxOptions = DEFAULT_BOX_OPTIONS): DetectedBox[] {
  const found: DetectedBox[] = [];
  for (const region of regionsOf(map, width, height, options.threshold)) {
    const score = region.sum / region.count;
    if (score < options.boxThreshold) continue;
    // Pixel corners, so a one-pixel-high region still has a height of one.
    const points: Point[] = [];
    for (const [y, [left, right]] of region.rows) points.push({ x: left, y }, { x: left, y: y + 1 }, { x: right + 1, y }, { x: right + 1, y: y + 1 });
    const core = minAreaRect(points);
    if (Math.min(core.width, core.height) < options.minSide) continue;
    found.push({ ...unclip(core, options.unclipRatio), score });
  }
  return found.sort((a, b) => b.score - a.score).slice(0, options.maxBoxes);
}

/**
 * Reading order: top to bottom, and left to right within a row — boxes whose vertical centres are within half the
 * smaller box's height of each other read as one row.
 */
export function readingOrder<T extends { cx: number; cy: number; height: number; width: number; angle: number }>(boxes: T[]): T[] {
  const sorted = [...boxes].sort((a, b) => a.cy - b.cy);
  const rows: T[][] = [];
  for (const box of sorted) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (row && first && Math.abs(box.cy - first.cy) < Math.min(lineHeight(box), lineHeight(first)) / 2) row.push(box);
    else rows.push([box]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.cx - a.width / 2 - (b.cx - b.width / 2)));
}

const lineHeight = (box: { height: number; width: number }) => Math.min(box.height, box.width);
