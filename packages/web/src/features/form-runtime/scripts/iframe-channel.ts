import { runnerDocument } from './runner-source.ts';
import type { OpenChannel } from './script-host.ts';

/**
 * A browser script's sandbox (docs/decisions/0118): a hidden frame with `sandbox="allow-scripts"` and no
 * `allow-same-origin`, so its document has an opaque origin — no cookies, no storage, no reach into this page or its
 * session. Only messages from that frame's window, sent by its own srcdoc document (origin "null"), are heard.
 */
export const openIframeChannel: OpenChannel = (receive) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('tabindex', '-1');
  frame.setAttribute('data-form-script', '');
  frame.title = 'form-script';
  frame.style.display = 'none';
  frame.srcdoc = runnerDocument();
  const listener = (event: MessageEvent) => {
    // A frame that navigated away has a real origin: whatever it says is not the runner's.
    if (!frame.contentWindow || event.source !== frame.contentWindow || event.origin !== 'null') return;
    receive(event.data);
  };
  window.addEventListener('message', listener);
  document.body.appendChild(frame);
  return {
    // An opaque origin cannot be named as a target: '*' is the only way to reach it, and the frame is ours.
    post: (message) => frame.contentWindow?.postMessage(message, '*'),
    close: () => {
      window.removeEventListener('message', listener);
      frame.remove();
    },
  };
};
