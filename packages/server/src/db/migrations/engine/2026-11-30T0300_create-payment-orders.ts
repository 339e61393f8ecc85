import { sql, type Kysely } from 'kysely';

/**
 * Payment orders and their refunds (issue 44; docs/decisions/0123, payment). Amounts are whole fen (integer), never
 * floating point; an order's out_trade_no and a refund's out_request_no are what the provider knows them by.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_orders')
    .addColumn('out_trade_no', 'text', (c) => c.primaryKey())
    .addColumn('plugin_code', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('control_code', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'integer', (c) => c.notNull().check(sql`amount_fen > 0`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('WAIT_BUYER_PAY', 'TRADE_SUCCESS', 'TRADE_CLOSED', 'TRADE_FINISHED')`))
    .addColumn('qr_code', 'text')
    .addColumn('trade_no', 'text')
    .addColumn('paid_fen', 'integer')
    .addColumn('paid_time', 'timestamptz')
    .addColumn('refunded_fen', 'integer', (c) => c.notNull().defaultTo(0).check(sql`refunded_fen >= 0`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_orders_record').on('payment_orders').columns(['schema_code', 'object_id', 'control_code']).execute();
  // One open order per record control: a second precreate reuses it.
  await db.schema.createIndex('payment_orders_one_open').on('payment_orders').unique().columns(['schema_code', 'object_id', 'control_code']).where(sql.ref('state'), '=', 'WAIT_BUYER_PAY').execute();
  await db.schema
    .createTable('payment_refunds')
    .addColumn('out_request_no', 'text', (c) => c.primaryKey())
    .addColumn('out_trade_no', 'text', (c) => c.notNull().references('payment_orders.out_trade_no'))
    .addColumn('amount_fen', 'integer', (c) => c.notNull().check(sql`amount_fen > 0`))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('REFUND_SUCCESS', 'REFUND_FAILED')`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_refunds_order').on('payment_refunds').column('out_trade_no').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_refunds').execute();
  await db.schema.dropTable('payment_orders').execute();
}
