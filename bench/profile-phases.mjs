/**
 * Where a server's CPU went during one phase of a bench: reads a V8 .cpuprofile (node --cpu-prof) and a phase's start
 * and end on the same monotonic clock (bench/peer-workload.ts prints them with `--cpu-prof` among its server's flags),
 * and prints the phase's samples by package (self time) and its top functions.
 * Run: node bench/profile-phases.mjs <file.cpuprofile> <startMicros> <endMicros> [calls]
 *   calls: the number of requests in the phase, to print ms per call as well.
 */
import { readFileSync } from 'node:fs';

const [file, from, to, callsArg] = process.argv.slice(2);
if (!file || !from || !to) throw new Error('usage: profile-phases.mjs <file.cpuprofile> <startMicros> <endMicros> [calls]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const start = Number(from);
const end = Number(to);
const calls = Number(callsArg ?? 0);

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** A frame's owner: the npm package of its file, Node's own modules, the app, or V8's pseudo-frames. */
function ownerOf(frame) {
  const url = frame.url ?? '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  if (url) return 'app';
  return frame.functionName || '(native)';
}

const self = new Map();
const byFunction = new Map();
/** Inclusive samples per package: a sample counts once for every package on its stack. */
const inclusive = new Map();
let t = profile.startTime;
let inPhase = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (t < start || t > end) continue;
  inPhase++;
  const node = nodes.get(profile.samples[i]);
  const owner = ownerOf(node.callFrame);
  if (owner === '(idle)') { idle++; continue; }
  self.set(owner, (self.get(owner) ?? 0) + 1);
  const fn = `${node.callFrame.functionName || '(anonymous)'} ${owner}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const o = ownerOf(nodes.get(id).callFrame);
    if (!seen.has(o)) {
      seen.add(o);
      inclusive.set(o, (inclusive.get(o) ?? 0) + 1);
    }
  }
}
const busy = inPhase - idle;
const interval = (profile.endTime - profile.startTime) / profile.samples.length / 1000;
const pct = (n) => `${((100 * n) / busy).toFixed(1)} %`;
const perCall = (n) => (calls ? ` · ${((n * interval) / calls).toFixed(2)} ms/call` : '');
console.log(`samples in phase ${inPhase} (${(inPhase * interval).toFixed(0)} ms), busy ${busy} (${((100 * busy) / inPhase).toFixed(1)} % of the phase${perCall(busy)})`);
console.log('\nself time by owner (share of busy samples):');
for (const [o, n] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`  ${o.padEnd(40)} ${pct(n).padStart(7)}${perCall(n)}`);
console.log('\ninclusive by package (on the stack):');
for (const [o, n] of [...inclusive].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`  ${o.padEnd(40)} ${pct(n).padStart(7)}${perCall(n)}`);
console.log('\ntop functions (self):');
for (const [f, n] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`  ${pct(n).padStart(7)}  ${f}`);
