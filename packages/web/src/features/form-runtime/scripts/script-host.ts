import { checkOperations, parseRunnerMessage, type FromRunner, type JsonValue, type OperationRules, type ScriptHandler, type ScriptOperation, type ServerAnswer, type ToRunner } from './script-protocol.ts';

/** A line to the sandbox: what the form posts, and the end of it. Messages come back through `receive`. */
export interface ScriptChannel {
  post: (message: ToRunner) => void;
  close: () => void;
}
/** Opens a fresh sandbox whose messages (already filtered to that sandbox) go to `receive`. */
export type OpenChannel = (receive: (data: unknown) => void) => ScriptChannel;

/** Something the person filling the form is told about their form's script. */
export type ScriptProblem =
  | { kind: 'error' | 'loadError'; message: string }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'refused'; count: number };

export interface ScriptHostOptions {
  /** The compiled browser script (an IIFE assigning its exports to a global). */
  js: string;
  open: OpenChannel;
  /** The fields the script may name now. */
  rules: () => OperationRules;
  /** Applies checked operations to the form, in order. */
  apply: (ops: ScriptOperation[]) => void;
  /** `form.callServer`: the form's server action; rejects with the message shown to the person. */
  callServer: (actionName: string, params: JsonValue) => Promise<ServerAnswer>;
  report: (problem: ScriptProblem) => void;
  /** The longest a handler may run between the form's messages (the server's own time is not counted). */
  timeoutMs?: number;
  /** The longest the sandbox may take to start and load the script. */
  startMs?: number;
}

/**
 * A handler's end: its JSON result, or a failure — `failed` (it threw or ran too long; the person has been told) or
 * `unavailable` (the script could not be loaded, or the form closed).
 */
export type RunOutcome = { ok: true; result: JsonValue } | { ok: false; reason: 'failed' | 'unavailable' };

interface Running {
  eventId: number;
  finish: (outcome: RunOutcome) => void;
  timer?: ReturnType<typeof setTimeout>;
  calls: number;
}

export const EVENT_TIMEOUT_MS = 2000;
const START_TIMEOUT_MS = 10_000;

/**
 * The form's side of one browser script: starts the sandbox, sends it the script, runs one handler at a time, checks
 * every operation it answers, and stops and starts the sandbox again when a handler runs too long.
 */
export class ScriptHost {
  private channel: ScriptChannel | null = null;
  private state: 'starting' | 'ready' | 'broken' | 'closed' = 'starting';
  private handlers = new Set<ScriptHandler>();
  private buttons = new Set<string>();
  private waiters: ((ready: boolean) => void)[] = [];
  private startTimer?: ReturnType<typeof setTimeout>;
  private queue: Promise<unknown> = Promise.resolve();
  private running: Running | null = null;
  private nextEvent = 0;
  private readonly timeoutMs: number;

  constructor(private readonly options: ScriptHostOptions) {
    this.timeoutMs = options.timeoutMs ?? EVENT_TIMEOUT_MS;
    this.start();
  }

  /** Resolves once the script is loaded (true) or could not be (false). */
  whenReady(): Promise<boolean> {
    if (this.state === 'ready') return Promise.resolve(true);
    if (this.state !== 'starting') return Promise.resolve(false);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The script exports this handler (for `button`: `buttons[actionName]`). */
  has(handler: ScriptHandler, actionName?: string): boolean {
    if (this.state !== 'ready' || !this.handlers.has(handler)) return false;
    return handler !== 'button' || (actionName !== undefined && this.buttons.has(actionName));
  }

  /**
   * Runs a handler after those already asked for, with the form's values as they are when it starts. A handler the
   * script does not export answers null at once, without a message to the sandbox.
   */
  run(handler: ScriptHandler, args: JsonValue[], values: () => Record<string, JsonValue>): Promise<RunOutcome> {
    const next = this.queue.then(async (): Promise<RunOutcome> => {
      if (!(await this.whenReady())) return { ok: false, reason: 'unavailable' };
      const name = handler === 'button' ? String(args[0]) : undefined;
      if (!this.has(handler, name)) return { ok: true, result: null };
      return new Promise<RunOutcome>((resolve) => {
        const eventId = ++this.nextEvent;
        this.running = { eventId, finish: resolve, calls: 0 };
        this.armTimer();
        this.channel?.post({ type: 'event', eventId, handler, args, values: values() });
      });
    });
    this.queue = next;
    return next;
  }

  dispose(): void {
    this.state = 'closed';
    clearTimeout(this.startTimer);
    this.stopRunning({ ok: false, reason: 'unavailable' });
    this.channel?.close();
    this.channel = null;
    this.settleWaiters(false);
  }

  private start(): void {
    this.state = 'starting';
    this.channel = this.options.open((data) => this.receive(data));
    clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => this.fail({ kind: 'loadError', message: '' }), this.options.startMs ?? START_TIMEOUT_MS);
  }

  private fail(problem: ScriptProblem): void {
    this.options.report(problem);
    this.state = 'broken';
    this.channel?.close();
    this.channel = null;
    this.settleWaiters(false);
  }

  private settleWaiters(ready: boolean): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve(ready);
  }

  private receive(data: unknown): void {
    const message = parseRunnerMessage(data);
    if (!message || this.state === 'closed' || this.state === 'broken') return;
    if (message.type === 'hello') {
      if (this.state === 'starting') this.channel?.post({ type: 'load', js: this.options.js });
    } else if (message.type === 'ready') {
      if (this.state !== 'starting') return;
      clearTimeout(this.startTimer);
      this.handlers = new Set(message.handlers);
      this.buttons = new Set(message.buttons);
      this.state = 'ready';
      this.settleWaiters(true);
    } else if (message.type === 'loadError') {
      if (this.state !== 'starting') return;
      clearTimeout(this.startTimer);
      this.fail({ kind: 'loadError', message: message.message });
    } else if (message.type === 'call') this.serverCall(message);
    else if (message.type === 'done') this.done(message);
  }

  private applyChecked(ops: readonly unknown[]): void {
    const { valid, refused } = checkOperations(ops, this.options.rules());
    if (valid.length) this.options.apply(valid);
    if (refused) this.options.report({ kind: 'refused', count: refused });
  }

  private serverCall(message: Extract<FromRunner, { type: 'call' }>): void {
    const running = this.running;
    if (!running || running.eventId !== message.eventId) return;
    this.applyChecked(message.ops);
    // The server's time is not the script's: the clock stops while a call is out.
    running.calls += 1;
    clearTimeout(running.timer);
    const answered = (reply: ToRunner) => {
      if (this.running !== running) return;
      running.calls -= 1;
      this.channel?.post(reply);
      this.armTimer();
    };
    this.options.callServer(message.actionName, message.params).then(
      (answer) => answered({ type: 'callResult', callId: message.callId, ok: true, answer }),
      (error: unknown) => answered({ type: 'callResult', callId: message.callId, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  }

  private done(message: Extract<FromRunner, { type: 'done' }>): void {
    const running = this.running;
    if (!running || running.eventId !== message.eventId) return;
    this.applyChecked(message.ops);
    if (message.error) {
      // A server's refusal was shown when it answered.
      if (!message.error.fromServer) this.options.report({ kind: 'error', message: message.error.message });
      this.stopRunning({ ok: false, reason: 'failed' });
    } else this.stopRunning({ ok: true, result: message.result });
  }

  private armTimer(): void {
    const running = this.running;
    if (!running || running.calls > 0) return;
    clearTimeout(running.timer);
    running.timer = setTimeout(() => this.timedOut(running), this.timeoutMs);
  }

  private timedOut(running: Running): void {
    if (this.running !== running) return;
    this.stopRunning({ ok: false, reason: 'failed' });
    this.options.report({ kind: 'timeout', seconds: this.timeoutMs / 1000 });
    // The frame may be stuck in a loop: it goes, and a fresh one loads the script again.
    this.channel?.close();
    this.start();
  }

  private stopRunning(outcome: RunOutcome): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = null;
    running.finish(outcome);
  }
}
