// Code128 barcodes (issue 24), code set B: printable ASCII. Each symbol is six alternating bar/space widths summing
// to 11 modules (the stop symbol seven, 13); the check symbol is the weighted sum of the values modulo 103.

const PATTERNS = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 ' +
  '123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 ' +
  '232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 ' +
  '313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 ' +
  '111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 ' +
  '114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112'
).split(' ');
const START_B = 104;
const STOP = 106;

/** Every symbol's widths (exported for the table's own test). */
export const CODE128_PATTERNS: readonly string[] = PATTERNS;

/** Whether code set B can carry `text`: printable ASCII only. Other text (Chinese, accents) is refused, not altered. */
export function code128Encodable(text: string): boolean {
  return /^[ -~]*$/.test(text);
}

/** The symbol values of `text` in code set B, start, check and stop included; throws on text it cannot carry. */
export function code128Values(text: string): number[] {
  if (!code128Encodable(text)) throw new RangeError('Code128 carries printable ASCII only');
  const data = [...text].map((c) => c.charCodeAt(0) - 32);
  const check = data.reduce((sum, v, i) => sum + v * (i + 1), START_B) % 103;
  return [START_B, ...data, check, STOP];
}

/** The bars as [offset, width] in modules, and the symbol's total width in modules (quiet zones excluded). */
export function code128Bars(text: string): { bars: [number, number][]; modules: number } {
  const bars: [number, number][] = [];
  let x = 0;
  for (const value of code128Values(text)) {
    const widths = PATTERNS[value]!;
    for (let i = 0; i < widths.length; i++) {
      const w = Number(widths[i]);
      if (i % 2 === 0) bars.push([x, w]);
      x += w;
    }
  }
  return { bars, modules: x };
}
