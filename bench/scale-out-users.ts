/**
 * The virtual users of bench/scale-out.ts: each one a member signed in by code, holding its live stream (reconnecting
 * as a browser's EventSource does when it drops) and looping over mixed work with a think time between actions.
 * Every answer's latency and outcome is kept with its time, so the run can tell errors at the kill from the rest.
 */
import { percentile, round1 } from './setup.ts';

export interface Session {
  headers: Record<string, string>;
  userId: string;
  /** A client address of its own (X-Forwarded-For through nginx): the per-address limits see 200 people, not one. */
  address: string;
}

export interface Sample {
  action: string;
  at: number;
  ms: number;
  ok: boolean;
  status: number;
  error?: string;
}

export interface World {
  base: string;
  schemaCode: string;
  /** Set when the test says stop. */
  stopping: () => boolean;
  samples: Sample[];
  /** Record ids a save answered successfully: each must be in the database at the end. */
  acknowledged: string[];
  streams: { opened: number; dropped: number; reconnected: number; byInstance: Map<string, number> };
}

const WEIGHTS: [string, number][] = [['list', 35], ['read', 10], ['save', 25], ['approve', 15], ['upload', 10], ['todoCount', 5]];
const pick = (): string => {
  let n = Math.random() * 100;
  for (const [action, weight] of WEIGHTS) if ((n -= weight) < 0) return action;
  return 'list';
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One call; its latency and outcome noted; answers `data` of a successful envelope, or undefined. */
async function call(world: World, action: string, who: Session, method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<any> {
  const at = Date.now();
  const t0 = performance.now();
  try {
    const res = await fetch(world.base + url, {
      method,
      headers: { ...who.headers, 'x-forwarded-for': who.address, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : contentType === 'application/json' ? JSON.stringify(body) : new Uint8Array(body as Buffer),
    });
    const text = await res.text();
    const json = text.startsWith('{') ? JSON.parse(text) : undefined;
    const ok = res.ok && json?.successful !== false;
    world.samples.push({ action, at, ms: performance.now() - t0, ok, status: res.status, ...(ok ? {} : { error: text.slice(0, 200) }) });
    return ok ? json?.data : undefined;
  } catch (error) {
    world.samples.push({ action, at, ms: performance.now() - t0, ok: false, status: 0, error: (error as Error).message });
    return undefined;
  }
}

/** The member's live stream through nginx, reopened 1–2 s after it drops, until the run stops. */
export async function holdStream(world: World, who: Session): Promise<void> {
  let first = true;
  while (!world.stopping()) {
    const controller = new AbortController();
    const stop = setInterval(() => world.stopping() && controller.abort(), 500);
    try {
      const res = await fetch(`${world.base}/v1/toolkit/live`, { headers: { ...who.headers, 'x-forwarded-for': who.address }, signal: controller.signal });
      if (res.status === 200 && res.body) {
        const instance = res.headers.get('x-tritium-instance') ?? '?';
        world.streams.byInstance.set(instance, (world.streams.byInstance.get(instance) ?? 0) + 1);
        if (first) world.streams.opened++;
        else world.streams.reconnected++;
        first = false;
        const reader = res.body.getReader();
        while (!(await reader.read()).done);
      }
    } catch {
      // dropped (the process died) or stopped
    } finally {
      clearInterval(stop);
    }
    if (world.stopping()) return;
    world.streams.dropped++;
    await sleep(1000 + Math.random() * 1000);
  }
}

/** The work loop: think 1–3 s, then one action by weight, until the run stops. */
export async function work(world: World, who: Session, others: Session[]): Promise<void> {
  const mine: string[] = [];
  const file = Buffer.alloc(20 * 1024, 'tritium scale-out load\n');
  while (!world.stopping()) {
    await sleep(1000 + Math.random() * 2000);
    if (world.stopping()) return;
    const action = pick();
    if (action === 'list') {
      await call(world, action, who, 'POST', '/v1/bizdata/query', { schemaCode: world.schemaCode, pageIndex: 0, pageSize: 20 });
    } else if (action === 'read' && mine.length) {
      await call(world, action, who, 'POST', '/v1/form/loaddata', { schemaCode: world.schemaCode, objectId: mine[Math.floor(Math.random() * mine.length)] });
    } else if (action === 'save' || action === 'read') {
      const approver = others[Math.floor(Math.random() * others.length)]!;
      const saved = await call(world, 'save', who, 'POST', '/v1/form/action/execute', {
        schemaCode: world.schemaCode, actionCode: 'Submit', values: { Title: `报销 ${mine.length + 1}`, Amount: Math.round(Math.random() * 5000), Approver: approver.userId },
      });
      if (saved?.objectId) {
        mine.push(saved.objectId);
        world.acknowledged.push(saved.objectId);
      }
    } else if (action === 'approve') {
      const todos = await call(world, 'todoList', who, 'POST', '/v1/workflow/todos/list', { tab: 'todo', pageIndex: 0, pageSize: 5 });
      const item = todos?.list?.find((row: { workItemId: string | null }) => row.workItemId);
      if (item) await call(world, action, who, 'POST', '/v1/workflow/instance/submit', { workItemId: item.workItemId, opinion: { text: '同意' } });
    } else if (action === 'upload') {
      await call(world, action, who, 'POST', `/v1/file/upload?scene=attachment&fileName=${encodeURIComponent('说明.txt')}`, file, 'text/plain');
    } else {
      await call(world, action, who, 'GET', '/v1/workflow/todos/count');
    }
  }
}

/** Per action: calls, errors, p50/p95/p99 in ms. */
export function summarise(samples: Sample[]) {
  const byAction = new Map<string, Sample[]>();
  for (const s of samples) (byAction.get(s.action) ?? byAction.set(s.action, []).get(s.action)!).push(s);
  const row = (list: Sample[]) => {
    const ms = list.map((s) => s.ms).sort((a, b) => a - b);
    return { calls: list.length, errors: list.filter((s) => !s.ok).length, p50: round1(percentile(ms, 50)), p95: round1(percentile(ms, 95)), p99: round1(percentile(ms, 99)) };
  };
  return { all: row(samples), ...Object.fromEntries([...byAction].map(([action, list]) => [action, row(list)])) };
}
