import t from 'tap'
import { balanceOf, buildTestApp, newAccount } from '../helpers/app.js'
import { advance, cashOut, cashOutBody, recordEmits } from '../helpers/payouts.js'

t.test('a liquidated cash-out returned by the destination bank credits the account and fires refund_out', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const a = await newAccount(app, { balance: 100, fee: 0.5 })
  const created = await cashOut(app, a.token, cashOutBody({ value: 40 }))
  t.equal(created.statusCode, 201)
  const { transactionId } = created.json()
  await advance(app, 1000)
  t.same(await balanceOf(app, a.accountId), { available: 59.5, blocked: 0, invariantHolds: true })

  const partial = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/refund-received`, payload: { amount: 15, reason: 'conta encerrada' } })
  t.equal(partial.statusCode, 201)
  const ret = partial.json()
  t.match(ret, { kind: 'REFUND_RECEIVED', direction: 'IN', status: 'CONFIRMED', amount: 15, accountId: a.accountId })
  t.match(ret.endToEndId, /^D[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/)
  t.same(await balanceOf(app, a.accountId), { available: 74.5, blocked: 0, invariantHolds: true })

  const event = emitted.find(e => e.eventType === 'refund_out')!
  t.ok(event, 'refund_out emitted')
  t.equal(event.transactionId, ret.id)
  const original = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json()
  t.match(event.payload, {
    type: 'REFUND',
    data: {
      status: 'REFUNDED',
      payment: { amount: '40.00', currency: 'BRL' },
      endToEndId: original.endToEndId,
      creditDebitType: 'CREDIT',
      refunds: [{ status: 'LIQUIDATED', payment: { amount: 15, currency: 'BRL' }, endToEndId: ret.endToEndId, information: 'conta encerrada' }],
    },
  })

  // The rest comes back by default; nothing beyond the original amount can.
  const rest = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/refund-received`, payload: {} })
  t.equal(rest.statusCode, 201)
  t.equal(rest.json().amount, 25)
  const beyond = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/refund-received`, payload: { amount: 0.01 } })
  t.equal(beyond.statusCode, 400)
  t.equal(beyond.json().code, 'REFUND_AMOUNT_EXCEEDS_ORIGINAL')
  t.same(await balanceOf(app, a.accountId), { available: 99.5, blocked: 0, invariantHolds: true })
})

t.test('only a liquidated pay-out can come back', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100 })
  const { transactionId } = (await cashOut(app, a.token, cashOutBody({ value: 10 }))).json()
  const pending = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/refund-received`, payload: {} })
  t.equal(pending.statusCode, 409)
  t.equal(pending.json().code, 'REFUND_NOT_ALLOWED')
  const before = await balanceOf(app, a.accountId)
  const bad = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/refund-received`, payload: { amount: 'x' } })
  t.equal(bad.statusCode, 400)
  t.same(await balanceOf(app, a.accountId), before)
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/transactions/nope/refund-received', payload: {} })
  t.equal(missing.statusCode, 404)
})
