import { createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { serveFake, bodyOf } from './fake-http.ts';

// A fake Alipay open-API gateway for the payment plugin (docs/decisions/0123, payment). It checks every request as the
// gateway documents: form-encoded common parameters, app_id known, sign_type RSA2, timestamp "yyyy-MM-dd HH:mm:ss",
// and the SHA256withRSA signature over the sorted non-empty parameters except `sign`, made with the app's private key
// (verified with the app public key the test gives it); a wrong one gets the gateway's isv.invalid-signature answer.
// Its answers put `<method>_response` first and sign that member's exact JSON text with the fake's own platform key.
// A precreated trade exists at the gateway only once scanned (query and close answer ACQ.TRADE_NOT_EXIST before);
// POST /__pay {out_trade_no} scans and pays it, then posts the signed asynchronous notify to its notify_url.
// The signing here is written independently of the platform's code, so a mistake there is not mirrored here.

export interface FakeTrade {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  status: 'CREATED' | 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED';
  tradeNo: string;
  gmtPayment: string | null;
  /** Refunds by out_request_no (fen). */
  refunds: Map<string, number>;
}

export interface AlipayFake {
  /** The gateway address to put in the plugin's settings. */
  gatewayUrl: string;
  appId: string;
  /** The fake platform's public key (PEM), for the plugin's settings. */
  platformPublicKey: string;
  trades: Map<string, FakeTrade>;
  /** Every request: its method and whether its signature verified. */
  calls: { method: string; verified: boolean }[];
  /** Scans and pays a precreated trade, then posts the signed notify; answers what the notify URL answered. */
  pay(outTradeNo: string): Promise<{ status: number; text: string }>;
  /** The notify parameters of a trade, signed with the fake platform's key (tests change them to forge one). */
  notifyOf(outTradeNo: string): Record<string, string>;
  /** Signs notify parameters with the fake platform's key (over all but sign and sign_type). */
  signNotify(params: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export type Deliver = (url: string, body: string) => Promise<{ status: number; text: string }>;

const fetchDeliver: Deliver = async (url, body) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body });
  return { status: response.status, text: await response.text() };
};

/** An RSA key pair as PEM texts (PKCS#8 private, SPKI public), as Alipay's key tool makes them. */
export function rsaKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

function contentOf(params: Record<string, string>, except: string[]): string {
  const names = Object.keys(params).filter((k) => !except.includes(k) && params[k] !== '');
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((k) => `${k}=${params[k]}`).join('&');
}

const fenOf = (amount: string) => Math.round(Number(amount) * 100);
const yuan = (fen: number) => (fen / 100).toFixed(2);
const chinaNow = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

export async function startAlipayFake(options: { appId?: string; appPublicKey: string; deliver?: Deliver }): Promise<AlipayFake> {
  const appId = options.appId ?? '2021000000000001';
  const platform = rsaKeyPair();
  const trades = new Map<string, FakeTrade>();
  const calls: AlipayFake['calls'] = [];
  const deliver = options.deliver ?? fetchDeliver;

  const sign = (text: string) => createSign('RSA-SHA256').update(text, 'utf8').sign(platform.privateKey, 'base64');
  const answer = (res: ServerResponse, member: string, body: Record<string, unknown>, signed = true) => {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(signed ? `{"${member}":${text},"sign":"${sign(text)}"}` : `{"${member}":${text}}`);
  };
  const refuse = (res: ServerResponse, member: string, subCode: string, subMsg: string) =>
    answer(res, member, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

  const notifyOf = (outTradeNo: string): Record<string, string> => {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    return signNotify({
      notify_time: chinaNow(),
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(12).toString('hex'),
      app_id: appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: trade.totalAmount,
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      subject: trade.subject,
      gmt_payment: trade.gmtPayment ?? '',
    });
  };
  function signNotify(params: Record<string, string>): Record<string, string> {
    const { sign: _old, ...rest } = params;
    return { ...rest, sign: sign(contentOf(rest, ['sign', 'sign_type'])) };
  }

  const server = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await bodyOf(req);
    if (req.method === 'POST' && url.pathname === '/__pay') {
      const { out_trade_no } = JSON.parse(body) as { out_trade_no: string };
      const delivered = await fake.pay(out_trade_no);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(delivered));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/gateway.do') {
      res.writeHead(404);
      res.end();
      return;
    }
    const params = Object.fromEntries(new URLSearchParams(body)) as Record<string, string>;
    const method = params.method ?? '';
    const member = `${method.replace(/\./g, '_')}_response`;
    let verified = false;
    try {
      verified = params.sign_type === 'RSA2' && createVerify('RSA-SHA256').update(contentOf(params, ['sign']), 'utf8').verify(options.appPublicKey, params.sign ?? '', 'base64');
    } catch {
      verified = false;
    }
    calls.push({ method, verified });
    if (params.app_id !== appId) return answer(res, member, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-app-id', sub_msg: '无效的AppID参数' }, false);
    if (!verified) return answer(res, member, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配' }, false);
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(params.timestamp ?? '')) return answer(res, member, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-timestamp', sub_msg: '非法的时间戳参数' }, false);
    if (params.format !== 'JSON' || params.charset !== 'utf-8' || params.version !== '1.0') return answer(res, member, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: '参数无效' }, false);
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    } catch {
      return answer(res, member, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: 'biz_content 无效' }, false);
    }
    const trade = biz.out_trade_no ? trades.get(biz.out_trade_no) : undefined;
    switch (method) {
      case 'alipay.trade.precreate': {
        if (!biz.out_trade_no || !/^\d+(\.\d{1,2})?$/.test(biz.total_amount ?? '') || !biz.subject) return refuse(res, member, 'ACQ.INVALID_PARAMETER', '参数无效');
        if (trade) return refuse(res, member, 'ACQ.TRADE_HAS_SUCCESS', '交易已存在');
        trades.set(biz.out_trade_no, { outTradeNo: biz.out_trade_no, totalAmount: biz.total_amount!, subject: biz.subject, notifyUrl: params.notify_url ?? '', status: 'CREATED', tradeNo: `2026${randomBytes(10).toString('hex')}`, gmtPayment: null, refunds: new Map() });
        return answer(res, member, { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, qr_code: `https://qr.alipay.com/fake${randomBytes(8).toString('hex')}` });
      }
      case 'alipay.trade.query': {
        if (!trade || trade.status === 'CREATED') return refuse(res, member, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        return answer(res, member, { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, trade_status: trade.status, total_amount: trade.totalAmount, ...(trade.gmtPayment ? { send_pay_date: trade.gmtPayment } : {}) });
      }
      case 'alipay.trade.close': {
        if (!trade || trade.status === 'CREATED') {
          if (trade) trade.status = 'TRADE_CLOSED';
          return refuse(res, member, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        }
        if (trade.status !== 'WAIT_BUYER_PAY') return refuse(res, member, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        trade.status = 'TRADE_CLOSED';
        return answer(res, member, { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo });
      }
      case 'alipay.trade.refund': {
        if (!trade || trade.status === 'CREATED') return refuse(res, member, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        const refunded = () => [...trade.refunds.values()].reduce((a, b) => a + b, 0);
        // The same out_request_no again is the same refund: answered, not refunded twice.
        if (biz.out_request_no && trade.refunds.has(biz.out_request_no)) {
          return answer(res, member, { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, fund_change: 'N', refund_fee: yuan(refunded()) });
        }
        if (trade.status !== 'TRADE_SUCCESS') return refuse(res, member, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        if (!/^\d+(\.\d{1,2})?$/.test(biz.refund_amount ?? '') || !biz.out_request_no) return refuse(res, member, 'ACQ.INVALID_PARAMETER', '参数无效');
        const fen = fenOf(biz.refund_amount!);
        if (fen <= 0 || refunded() + fen > fenOf(trade.totalAmount)) return refuse(res, member, 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
        trade.refunds.set(biz.out_request_no, fen);
        if (refunded() === fenOf(trade.totalAmount)) trade.status = 'TRADE_CLOSED';
        return answer(res, member, { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo, fund_change: 'Y', refund_fee: yuan(refunded()), gmt_refund_pay: chinaNow() });
      }
      default:
        return answer(res, 'error_response', { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' }, false);
    }
  });

  const fake: AlipayFake = {
    gatewayUrl: `${server.url}/gateway.do`,
    appId,
    platformPublicKey: platform.publicKey,
    trades,
    calls,
    async pay(outTradeNo) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`no trade ${outTradeNo}`);
      if (trade.status === 'CREATED' || trade.status === 'WAIT_BUYER_PAY') {
        trade.status = 'TRADE_SUCCESS';
        trade.gmtPayment = chinaNow();
      }
      return deliver(trade.notifyUrl, new URLSearchParams(notifyOf(outTradeNo)).toString());
    },
    notifyOf,
    signNotify,
    close: server.close,
  };
  return fake;
}
