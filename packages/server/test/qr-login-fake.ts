import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import QRCode from 'qrcode';
import { readBody } from './oidc-issuer.ts';

// The QR-login page every fake chat platform serves (issue 25): like the platform's own page it shows a QR code for
// the phone app and waits; when the person confirms on the phone — here: a test posts { state, userid } to
// /qr/confirm — the page sends the browser back to the redirect URI with a one-use code and the state. The page
// learns of the confirmation by polling /qr/poll, as the platforms' pages do.

interface Pending {
  redirectUri: string;
  /** Set once confirmed: where the page sends the browser. */
  target?: string;
}

export interface QrLogins {
  /** Serves the QR page (at the platform's path), /qr/poll and /qr/confirm; false when the request is none of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, page: { path: string; clientParam: string; clientId: string; title: string }): Promise<boolean>;
  /** QR pages served: their state and the query they were opened with. */
  opened: { state: string; query: URLSearchParams }[];
}

/**
 * `issueCode(userid)` makes the platform's one-use code for that person; `codeParam` is the name the platform gives it
 * in the redirect (DingTalk: authCode, others: code).
 */
export function qrLogins(baseUrl: () => string, issueCode: (userid: string) => string, codeParam: string): QrLogins {
  const pending = new Map<string, Pending>();
  const opened: QrLogins['opened'] = [];
  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  return {
    opened,
    async handle(req, res, url, page) {
      if (req.method === 'GET' && url.pathname === page.path) {
        const state = url.searchParams.get('state') ?? '';
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        if (url.searchParams.get(page.clientParam) !== page.clientId || !redirectUri) {
          html(res, 400, '<!doctype html><meta charset="utf-8"><p>应用参数错误</p>');
          return true;
        }
        opened.push({ state, query: url.searchParams });
        pending.set(state, { redirectUri });
        const ticket = randomBytes(8).toString('hex');
        const svg = await QRCode.toString(`${baseUrl()}/qr/scan?ticket=${ticket}&state=${encodeURIComponent(state)}`, { type: 'svg', margin: 1, width: 220 });
        html(
          res,
          200,
          `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${page.title}</title></head>
<body style="font-family:sans-serif;text-align:center;padding-top:48px;background:#f5f6f7">
<div style="display:inline-block;background:#fff;padding:24px 32px;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.1)">
<h2 style="margin:0 0 16px;font-size:20px">${page.title}</h2><div data-testid="qr" style="width:220px;height:220px;margin:auto">${svg}</div>
<p id="hint" style="color:#666">请使用手机扫码登录</p></div>
<script>
const state = ${JSON.stringify(state)};
const poll = async () => {
  const answer = await fetch('/qr/poll?state=' + encodeURIComponent(state)).then((r) => r.json()).catch(() => ({}));
  if (answer.target) { document.getElementById('hint').textContent = '已确认，正在登录…'; location.replace(answer.target); }
  else setTimeout(poll, 300);
};
poll();
</script></body></html>`,
        );
        return true;
      }
      if (req.method === 'GET' && url.pathname === '/qr/poll') {
        json(res, 200, { target: pending.get(url.searchParams.get('state') ?? '')?.target ?? null });
        return true;
      }
      if (req.method === 'POST' && url.pathname === '/qr/confirm') {
        const body = JSON.parse((await readBody(req)) || '{}') as { state?: string; userid?: string };
        const flow = pending.get(String(body.state));
        if (!flow || !body.userid) {
          json(res, 404, { message: 'no QR page is waiting with this state' });
          return true;
        }
        const target = new URL(flow.redirectUri);
        target.searchParams.set(codeParam, issueCode(body.userid));
        target.searchParams.set('state', String(body.state));
        flow.target = target.toString();
        json(res, 200, { target: flow.target });
        return true;
      }
      return false;
    },
  };
}

/** What a phone does when its person confirms the QR login of `state` at the fake platform `baseUrl`. */
export async function confirmScan(baseUrl: string, state: string, userid: string): Promise<string> {
  const res = await fetch(`${baseUrl}/qr/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state, userid }) });
  if (!res.ok) throw new Error(`confirm failed: ${res.status}`);
  return ((await res.json()) as { target: string }).target;
}
