// Recognition's decoding (docs/decisions/0125): the recognition model answers, for each of T steps across a line,
// a probability for every class — class 0 is CTC's "blank", then the characters of the key list in order, then the
// space. Greedy decoding takes each step's most likely class, drops a class repeated from the step before (one
// character spans several steps) and the blanks; the line's confidence is the mean probability of the kept steps.

export interface DecodedLine {
  text: string;
  confidence: number;
}

/** The classes of PaddleOCR's Chinese recognition model: blank, the key list's characters, then the space. */
export function charactersOf(keyList: string): string[] {
  const keys = keyList.split(/\r?\n/);
  if (keys[keys.length - 1] === '') keys.pop();
  return ['', ...keys, ' '];
}

/**
 * Greedy CTC decoding of `batch` lines from a flat [batch, steps, classes] array of probabilities. Characters of a
 * class the list does not have (a model and a list that disagree) are skipped rather than invented.
 */
export function ctcGreedyDecode(probs: Float32Array, batch: number, steps: number, classes: number, characters: readonly string[]): DecodedLine[] {
  const lines: DecodedLine[] = [];
  for (let b = 0; b < batch; b++) {
    let text = '';
    let sum = 0;
    let kept = 0;
    let previous = -1;
    for (let t = 0; t < steps; t++) {
      const offset = (b * steps + t) * classes;
      let best = 0;
      let bestP = probs[offset]!;
      for (let c = 1; c < classes; c++) {
        const p = probs[offset + c]!;
        if (p > bestP) {
          bestP = p;
          best = c;
        }
      }
      if (best !== 0 && best !== previous) {
        const character = characters[best];
        if (character !== undefined) {
          text += character;
          sum += bestP;
          kept++;
        }
      }
      previous = best;
    }
    lines.push({ text: text.trim(), confidence: kept ? sum / kept : 0 });
  }
  return lines;
}
