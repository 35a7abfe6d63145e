import t from 'tap'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { TSchema } from '@sinclair/typebox'
import { startSandbox, type RunningSandbox } from '../../server/index.js'
import type { Delivery, EventType } from '../../client/index.js'
import { WebhookPayloadSchemas } from '../../server/schemas/webhooks.js'
import { EVENT_TYPES } from '../../server/store/state.js'

/**
 * What a delivery's body is, by its event type, is defined once (server/schemas/webhooks.ts): the
 * envelopes and samples are typed by it at compile time, and the typed client hands integrators
 * deliveries typed by it. Here every money flow and every sample runs for real, and each body in the
 * delivery log must match its event type's schema exactly: no field missing, none the type does
 * not name (a field spread in from another record would escape the compiler's excess checks).
 */

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)

/** The schema with every object closed: a field the type does not name fails. */
function closed (schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]))
  if (copy.type === 'object' && copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false
  return copy
}

const validators = Object.fromEntries(EVENT_TYPES.map(e => [e, ajv.compile(closed(WebhookPayloadSchemas[e] as TSchema) as object)]))

const payout = (externalId: string) => ({ value: 10, externalId, details: { key: 'maria@example.com', keyType: 'EMAIL' as const, name: 'Maria', document: '52998224725' } })
const payer = { fullName: 'Maria', document: '52998224725' }

async function everyFlow (sandbox: RunningSandbox): Promise<number> {
  const { accountId, client } = await sandbox.createAccount({ balance: 1000 })
  const control = sandbox.client.sandbox
  // cash_out: the CashOut notification, confirmed and failed; the V2 TRANSFER, liquidated and failed.
  const paid = await client.cashOut(payout('ok'))
  await client.cashOut(payout('blocked'), { scenario: 'BLOCKED_ACCOUNT' })
  await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 5 } })
  await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 5 } }, { scenario: 'ACCOUNT_CLOSED' })
  // cash_in: a charge paid, a charge whose confirmation fails, an unsolicited PIX.
  const charge = await client.cashIn({ transaction: { value: 50, description: 'Pedido', externalId: 'c-1' }, payer })
  const failing = await client.cashIn({ transaction: { value: 50, description: 'Pedido', externalId: 'c-2' }, payer }, { scenario: 'PAYMENT_ERROR' })
  const received = await control.pay(charge.pixCode)
  await control.pay(failing.pixCode)
  const incoming = await control.incoming({ accountId, amount: 30 })
  // refund_in, settled and failed; refund_out when the destination bank returns the pay-out.
  await client.refundIn(charge.transactionId, { refundValue: 5 })
  await client.refundIn(charge.transactionId, { refundValue: 5 }, { scenario: 'REFUND_FAILED' })
  await sandbox.advanceClock(60_000)
  await control.refundReceived(paid.transactionId, { amount: 2 })
  // med_created, med_accepted (with the devolução that returned the money), med_rejected.
  const approved = await control.openMed({ endToEndId: received.endToEndId, reason: 'REFUND_REQUEST', cause: 'UNAUTHORIZED_TRANSACTION' })
  const rejected = await control.openMed({ endToEndId: incoming.endToEndId, reason: 'REFUND_REQUEST' })
  for (const med of [approved, rejected]) await control.transitionMed(med.id, { status: 'RECEIVED' })
  await control.transitionMed(approved.id, { status: 'ANALYZED', analysisResult: 'APPROVED' })
  await control.transitionMed(rejected.id, { status: 'ANALYZED', analysisResult: 'REJECTED' })
  await sandbox.advanceClock(60_000)
  // And the sample of every event type (POST /__sandbox/webhooks/test, the report's probe).
  for (const eventType of EVENT_TYPES) await control.testWebhook({ accountId, eventType })
  return accountId
}

t.test('every body in the delivery log matches the schema of its event type, for every flow and every sample', async t => {
  const sandbox = await startSandbox({ port: 0, seed: 'payloads', clock: 'frozen' })
  t.teardown(() => sandbox.close())
  const accountId = await everyFlow(sandbox)
  const { deliveries } = await sandbox.client.sandbox.deliveries({ accountId, limit: 1000 })

  const seen = new Map<EventType, number>()
  for (const delivery of deliveries) {
    seen.set(delivery.eventType, (seen.get(delivery.eventType) ?? 0) + 1)
    const validate = validators[delivery.eventType]
    t.ok(validate(delivery.body), `${delivery.eventType} ${JSON.stringify(delivery.body).slice(0, 60)}...`, { errors: validate.errors })
  }
  t.same([...seen.keys()].sort(), [...EVENT_TYPES].sort(), 'every event type was delivered')
  const cashOuts = deliveries.filter((d): d is Delivery<'cash_out'> => d.eventType === 'cash_out')
  const shapes = cashOuts.map(d => 'event' in d.body ? `CashOut ${d.body.status}` : `TRANSFER ${d.body.data.status}`)
  t.same([...new Set(shapes)].sort(), ['CashOut CONFIRMED', 'CashOut ERROR', 'TRANSFER ERROR', 'TRANSFER LIQUIDATED'])
  const accepted = deliveries.find((d): d is Delivery<'med_accepted'> => d.eventType === 'med_accepted' && d.body.data.refund !== undefined)
  t.ok(accepted?.body.data.refund, 'an approved MED carries its devolução')
})

t.test('a delivery waited for by event type is typed by it: the body needs no cast', async t => {
  const sandbox = await startSandbox({ port: 0, seed: 'payloads', clock: 'frozen' })
  t.teardown(() => sandbox.close())
  const { accountId, client } = await sandbox.createAccount({ balance: 0 })
  const charge = await client.cashIn({ transaction: { value: 25, description: 'Pedido', externalId: 'typed' }, payer })
  await sandbox.client.sandbox.pay(charge.pixCode)
  const delivery = await sandbox.waitForDelivery({ accountId, eventType: 'cash_in', transactionId: charge.transactionId })
  const status: 'LIQUIDATED' | 'ERROR' = delivery.body.data.status
  const amount: string = delivery.body.data.payment.amount
  t.same([status, amount], ['LIQUIDATED', '25.00'])
})
