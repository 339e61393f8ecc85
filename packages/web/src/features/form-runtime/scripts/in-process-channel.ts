/**
 * Test helper: the sandbox's runner (the very code the frame runs) in this process, behind a channel that delivers
 * messages asynchronously and as structured clones, the way postMessage does. The frame itself is proven in the
 * browser scenario e2e/browser-script.e2e.ts.
 */
import { EXPORTS_TAIL, RUNNER_SOURCE } from './runner-source.ts';
import type { OpenChannel } from './script-host.ts';

export interface InProcessSandboxes {
  open: OpenChannel;
  /** How many sandboxes were opened (a time-out opens a fresh one). */
  opened: () => number;
  /** Sends a message as if the script itself had posted it to the form (it can: `parent.postMessage`). */
  forge: (data: unknown) => void;
}

type RunnerMain = (env: { post: (message: unknown) => void; listen: (receive: (data: unknown) => void) => void; compile: (js: string) => unknown }) => void;

export function inProcessSandboxes(): InProcessSandboxes {
  let count = 0;
  let toForm: ((data: unknown) => void) | null = null;
  const open: OpenChannel = (receive) => {
    count += 1;
    let closed = false;
    let toRunner: ((data: unknown) => void) | null = null;
    const deliver = (target: () => ((data: unknown) => void) | null, data: unknown) => {
      const copy = structuredClone(data);
      setTimeout(() => {
        if (!closed) target()?.(copy);
      }, 0);
    };
    toForm = (data) => deliver(() => receive, data);
    const main = new Function(`return (${RUNNER_SOURCE});`)() as RunnerMain;
    main({
      post: (message) => deliver(() => receive, message),
      listen: (receiveInRunner) => {
        toRunner = receiveInRunner;
      },
      compile: (js) => new Function(js + EXPORTS_TAIL)(),
    });
    return {
      post: (message) => deliver(() => toRunner, message),
      close: () => {
        closed = true;
      },
    };
  };
  return { open, opened: () => count, forge: (data) => toForm?.(data) };
}
