import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { findAutomation, type StoredAutomation } from './automation.repo.ts';
import { designedAutomation } from './automation.service.ts';
import { enqueueRuns } from './automation-events.ts';

// The inbound connector trigger (docs/decisions/0123): an outside system posts to the automation's own URL, signing
// `<timestamp>.<raw body>` with HMAC-SHA256 and the automation's secret — the same scheme as the outbound HMAC
// authentication of connections (connection-auth.ts): X-Signature (hex), X-Timestamp (Unix seconds), plus
// X-Delivery-Id. One run per delivery id: the id is recorded in the run's transaction, and a retry answers the first
// delivery's run.

const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' ? value.trim() : '';
};

const secretOf = (automation: StoredAutomation) => (automation.webhookToken ? (openSecrets(automation.webhookToken)?.token ?? null) : null);

/** The hex HMAC-SHA256 a sender puts in X-Signature. */
export function inboundSignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

function sameSignature(given: string, expected: string): boolean {
  // A `sha256=` prefix (as GitHub-style senders write it) is accepted; the compare is constant-time over equal lengths.
  const bare = given.replace(/^sha256=/i, '').toLowerCase();
  const a = Buffer.from(bare);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface InboundDelivery {
  engineCode: string;
  automationId: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/**
 * Checks a delivery and starts its run once. Refusals create nothing: unsigned, expired or forged (401, the same
 * answer whether the automation exists or not), the connector plugin not installed, the automation disabled.
 */
export async function deliverInbound(db: Db, delivery: InboundDelivery, now = new Date()): Promise<{ runId: string; deliveryId: string }> {
  const signature = header(delivery.headers, contracts.INBOUND_HEADERS.signature);
  const timestamp = header(delivery.headers, contracts.INBOUND_HEADERS.timestamp);
  const deliveryId = header(delivery.headers, contracts.INBOUND_HEADERS.delivery);
  if (!signature || !timestamp || !deliveryId) throw new AppError('InboundUnsigned');
  const engine = await db.selectFrom('platform.engines').select('engine_code').where('engine_code', '=', delivery.engineCode).executeTakeFirst();
  const edb = engineDb(db, delivery.engineCode);
  const automation = engine ? await findAutomation(edb, delivery.automationId) : undefined;
  const secret = automation?.model.trigger.type === 'connector' ? secretOf(automation) : null;
  if (!automation || !secret) throw new AppError('InboundSignatureInvalid');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > contracts.INBOUND_WINDOW_SECONDS) {
    throw new AppError('InboundExpired', { detail: { seconds: contracts.INBOUND_WINDOW_SECONDS } });
  }
  if (!sameSignature(signature, inboundSignature(secret, timestamp, delivery.rawBody))) throw new AppError('InboundSignatureInvalid');
  if (!DELIVERY_ID.test(deliveryId)) throw new AppError('InboundDeliveryIdInvalid');
  await requireInstalledPlugin(edb, 'connector');
  if (!automation.enabled) throw new AppError('AutomationDisabled');
  let body: unknown;
  try {
    body = delivery.rawBody.trim() ? JSON.parse(delivery.rawBody) : {};
  } catch {
    throw new AppError('InboundBodyInvalid');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AppError('InboundBodyInvalid');
  return db.transaction().execute(async (trx) => {
    const tx = engineDb(trx, delivery.engineCode);
    // The claim comes first: a concurrent retry waits on the key until this transaction ends, then finds the row.
    const claimed = await tx
      .insertInto('connector_deliveries')
      .values({ automation_id: automation.id, delivery_id: deliveryId })
      .onConflict((oc) => oc.columns(['automation_id', 'delivery_id']).doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    if (!claimed) {
      const first = await tx.selectFrom('connector_deliveries').select('run_id').where('automation_id', '=', automation.id).where('delivery_id', '=', deliveryId).executeTakeFirstOrThrow();
      return { runId: first.run_id ?? '', deliveryId };
    }
    const eventKey = `connector:${deliveryId}`;
    const [queued] = await enqueueRuns(
      tx,
      delivery.engineCode,
      [{ automationId: automation.id, schemaCode: automation.schemaCode, triggerType: 'connector', objectId: null, eventKey, inputs: { event: 'connector', deliveryId, body } }],
      [],
    );
    // No new run: the delivery's row went with the retention sweep (connector-delivery-sweep.ts) while its run is
    // still in the log, whose event key holds it once; the answer is that run's, as for any retry.
    const runId = queued ?? (await tx.selectFrom('automation_runs').select('id').where('automation_id', '=', automation.id).where('event_key', '=', eventKey).executeTakeFirst())?.id;
    await tx.updateTable('connector_deliveries').set({ run_id: runId ?? null }).where('automation_id', '=', automation.id).where('delivery_id', '=', deliveryId).execute();
    return { runId: runId ?? '', deliveryId };
  });
}

async function connectorAutomation(ctx: NodeContext, id: string, empowering: boolean) {
  const found = await designedAutomation(ctx, id, empowering);
  if (found.automation.model.trigger.type !== 'connector') throw new AppError('InboundNotConnectorTrigger');
  return found;
}

const secretResult = (ctx: NodeContext, id: string, secret: string): contracts.InboundSecretResult => ({
  url: `${contracts.INBOUND_PATH}/${encodeURIComponent(ctx.engineCode)}/${id}`,
  secret,
  headers: { ...contracts.INBOUND_HEADERS },
});

/** The delivery URL and signing secret, for whoever designs the automation's form. */
export async function inboundSecret(ctx: NodeContext, id: string): Promise<contracts.InboundSecretResult> {
  const { automation } = await connectorAutomation(ctx, id, false);
  const secret = secretOf(automation);
  if (!secret) throw new AppError('InboundNotConnectorTrigger');
  return secretResult(ctx, id, secret);
}

/** A new signing secret: deliveries signed with the old one are refused from now on. */
export async function resetInboundSecret(ctx: NodeContext, id: string): Promise<contracts.InboundSecretResult> {
  const { edb } = await connectorAutomation(ctx, id, true);
  const secret = randomBytes(24).toString('hex');
  await edb.updateTable('automations').set({ webhook_token: sealSecrets({ token: secret }), modified_time: new Date() }).where('id', '=', id).execute();
  return secretResult(ctx, id, secret);
}
