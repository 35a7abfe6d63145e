import t from 'tap'
import { balanceOf, bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { advance, cashInBody, createCashIn, payCode, receiveIncoming, recordEmits } from '../helpers/payins.js'
import { chargeData } from '../../server/services/charge-records.js'

type App = Awaited<ReturnType<typeof buildTestApp>>
const refundIn = (app: App, token: string, id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/pix/refund-in/${id}`, headers: { ...bearer(token), ...headers }, payload })

async function paidCashIn (app: App, token: string, value: number) {
  const charge = await createCashIn(app, token, cashInBody({ value }))
  const paid = (await payCode(app, charge.pixCode)).json()
  return { transactionId: charge.transactionId, endToEndId: paid.endToEndId as string }
}

t.test('a partial refund: 201 PENDING with the amount reserved, then CONFIRMED with the REFUND webhook', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 100)
  const res = await refundIn(app, acc.token, paid.transactionId, { refundValue: 40, reason: 'produto devolvido', externalId: 'ref1' })
  t.equal(res.statusCode, 201, res.body)
  const refund = res.json()
  t.match(refund, { externalId: 'ref1', status: 'PENDING', refundValue: 40, generateTime: '2026-03-10T15:00:00.000Z' })
  t.match(refund.providerTransactionId, /^D99999004202603101500[A-Za-z0-9]{11}$/)
  t.same(await balanceOf(app, acc.accountId), { available: 60, blocked: 40, invariantHolds: true })
  await advance(app, 50)
  t.equal(app.sandbox.store.transaction(refund.transactionId)!.status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 60, blocked: 0, invariantHolds: true })
  const refundEvent = events.find(e => e.eventType === 'refund_in')!
  t.same(refundEvent.payload, {
    type: 'REFUND',
    data: {
      id: app.sandbox.store.transaction(paid.transactionId)!.seq,
      txId: chargeData(app.sandbox.store.transaction(paid.transactionId)!).txid,
      status: 'REFUNDED',
      payment: { amount: '100.00', currency: 'BRL' },
      refunds: [{ status: 'LIQUIDATED', payment: { amount: 40, currency: 'BRL' }, endToEndId: refund.providerTransactionId, eventDate: '2026-03-10T15:00:00.050Z', information: 'produto devolvido' }],
      endToEndId: paid.endToEndId,
      creditDebitType: 'DEBIT',
      errorCode: null,
      errorMessage: null,
    },
  })
  t.equal(refundEvent.transactionId, refund.transactionId)
})

t.test('refunds add up to the original and not beyond; the endToEndId is accepted as id', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 100)
  t.equal((await refundIn(app, acc.token, paid.transactionId, { refundValue: 60 })).statusCode, 201)
  const over = await refundIn(app, acc.token, paid.endToEndId, { refundValue: 40.01 })
  t.equal(over.statusCode, 400)
  t.equal(over.json().errorCode, 'REFUND_AMOUNT_EXCEEDS_ORIGINAL')
  t.same(over.json().details, { refundValue: 40.01, remaining: 40 })
  t.equal((await refundIn(app, acc.token, paid.endToEndId, { refundValue: 40 })).statusCode, 201, 'the rest, by endToEndId')
  t.equal((await refundIn(app, acc.token, paid.transactionId, { refundValue: 0.01 })).statusCode, 400, 'nothing left')
  await advance(app, 50)
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
})

t.test('400s and 404s of spec 7.5; nothing moves', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 0 })
  const b = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, a.token, 10)
  const pending = await createCashIn(app, a.token, cashInBody({ value: 10 }))
  const cases: Array<[string, string, Record<string, unknown>, number, string]> = [
    ['unknown id', 'nope', { refundValue: 1 }, 404, 'HTTP_ERROR'],
    ['an unpaid charge', pending.transactionId, { refundValue: 1 }, 400, 'REFUND_NOT_ALLOWED'],
    ['3 decimals', paid.transactionId, { refundValue: 1.001 }, 400, 'PIX_INVALID_AMOUNT'],
    ['zero', paid.transactionId, { refundValue: 0 }, 400, 'HTTP_ERROR'],
    ['missing value', paid.transactionId, {}, 400, 'HTTP_ERROR'],
    ['externalId with a dash', paid.transactionId, { refundValue: 1, externalId: 'a-b' }, 400, 'HTTP_ERROR'],
  ]
  for (const [name, id, payload, status, code] of cases) {
    const res = await refundIn(app, a.token, id, payload)
    t.equal(res.statusCode, status, name)
    t.equal(res.json().code, code, name)
  }
  t.equal((await refundIn(app, b.token, paid.transactionId, { refundValue: 1 })).statusCode, 404, "another account's payment is not found")
  t.equal((await refundIn(app, a.token, paid.transactionId, { refundValue: 1, externalId: 'x1' })).statusCode, 201)
  const dup = await refundIn(app, a.token, paid.transactionId, { refundValue: 1, externalId: 'x1' })
  t.equal(dup.statusCode, 400)
  t.equal(dup.json().errorCode, 'PIX_DUPLICATE_EXTERNAL_ID')
  t.same(await balanceOf(app, a.accountId), { available: 9, blocked: 1, invariantHolds: true })
  t.equal((await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, payload: { refundValue: 1 } })).statusCode, 401)
})

t.test('a refund needs available balance: 400 PIX_INSUFFICIENT_BALANCE when splits or debits took the money', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 10)
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { set: 5 } })
  const res = await refundIn(app, acc.token, paid.transactionId, { refundValue: 6 })
  t.equal(res.statusCode, 400)
  t.equal(res.json().errorCode, 'PIX_INSUFFICIENT_BALANCE')
  t.same(await balanceOf(app, acc.accountId), { available: 5, blocked: 0, invariantHolds: true })
})

t.test('the 89-day deadline by the sandbox clock', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const incoming = await receiveIncoming(app, acc.accountId, 20)
  await advance(app, 89 * 86_400_000)
  const token = await tokenFor(app, acc) // the first one lived 1800 s of sandbox time
  t.equal((await refundIn(app, token, incoming.transactionId, { refundValue: 1 })).statusCode, 201, 'day 89 is still inside')
  await advance(app, 1)
  const late = await refundIn(app, token, incoming.transactionId, { refundValue: 1 })
  t.equal(late.statusCode, 400)
  t.equal(late.json().errorCode, 'REFUND_DEADLINE_EXCEEDED')
  await advance(app, 50)
  t.same(await balanceOf(app, acc.accountId), { available: 19, blocked: 0, invariantHolds: true })
})

t.test('scenario REFUND_FAILED: ERROR at settlement, reservation released, webhook reports the failure', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 30)
  const res = await refundIn(app, acc.token, paid.transactionId, { refundValue: 30 }, { 'x-sandbox-scenario': 'REFUND_FAILED' })
  t.equal(res.statusCode, 201)
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 30, invariantHolds: true })
  await advance(app, 50)
  t.match(app.sandbox.store.transaction(res.json().transactionId), { status: 'ERROR', errorCode: 'REFUND_FAILED' })
  t.same(await balanceOf(app, acc.accountId), { available: 30, blocked: 0, invariantHolds: true })
  t.match(events.filter(e => e.eventType === 'refund_in'), [{ payload: { type: 'REFUND', data: { status: 'ERROR', refunds: [{ status: 'ERROR' }], errorCode: 'REFUND_FAILED' } } }])
  t.equal((await refundIn(app, acc.token, paid.transactionId, { refundValue: 30 })).statusCode, 201, 'a failed refund does not count against the original')
})

t.test('scenario REFUND_DELAY;ms=N settles N ms later', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 30)
  const res = await refundIn(app, acc.token, paid.transactionId, { refundValue: 10 }, { 'x-sandbox-scenario': 'REFUND_DELAY;ms=10000' })
  await advance(app, 9_999)
  t.equal(app.sandbox.store.transaction(res.json().transactionId)!.status, 'PENDING')
  await advance(app, 1)
  t.equal(app.sandbox.store.transaction(res.json().transactionId)!.status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 20, blocked: 0, invariantHolds: true })
})

t.test('a pending refund survives a snapshot import and settles afterwards', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const paid = await paidCashIn(app, acc.token, 30)
  const res = await refundIn(app, acc.token, paid.transactionId, { refundValue: 10 })
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  await advance(app, 50)
  t.equal(app.sandbox.store.transaction(res.json().transactionId)!.status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 20, blocked: 0, invariantHolds: true })
})
