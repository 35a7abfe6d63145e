import t from 'tap'
import { buildTestApp, newAccount, bearer } from '../helpers/app.js'
import { recordEmits, cashOutEvents, cashOutBody, cashOut, advance } from '../helpers/payouts.js'

t.test('200 concurrent cash-outs against a balance that covers only part of them', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  // 1000.00 covers 75 pay-outs of 12.83 + 0.50 fee (999.75), not the 76th.
  const acc = await newAccount(app, { balance: 1000, fee: 0.5 })
  const responses = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    cashOut(app, acc.token, cashOutBody({ value: 12.83, externalId: `burst-${i}` }))))
  const created = responses.filter(r => r.statusCode === 201)
  const refused = responses.filter(r => r.statusCode !== 201)
  t.equal(created.length, 75)
  t.ok(refused.every(r => r.statusCode === 400 && r.json().errorCode === 'PIX_INSUFFICIENT_BALANCE'))

  const mid = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.same(mid.balance, { available: 0.25, blocked: 999.75, gross: 1000 })
  t.equal(mid.invariantHolds, true)

  await advance(app, 50)
  const end = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.same(end.balance, { available: 0.25, blocked: 0, gross: 0.25 })
  t.same(end.totals, { opening: 1000, adjustments: 0, settledIn: 0, settledOut: 962.25, fees: 37.5 })
  t.equal(end.invariantHolds, true)
  t.equal(cashOutEvents(emitted).length, 75)
  t.ok(cashOutEvents(emitted).every(e => (e.payload as { status: string }).status === 'CONFIRMED'))
})

t.test('50 concurrent cash-outs sharing an externalId make exactly one payment', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 1000, fee: 0.5 })
  const responses = await Promise.all(Array.from({ length: 50 }, () => cashOut(app, acc.token, cashOutBody({ value: 10, externalId: 'same-order' }))))
  t.equal(responses.filter(r => r.statusCode === 201).length, 1)
  const dups = responses.filter(r => r.statusCode === 400)
  t.equal(dups.length, 49)
  const existing = new Set(dups.map(r => r.json().details.existingTransactionId))
  t.equal(existing.size, 1, 'every duplicate points at the one payment')
  const list = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json().transactions
  t.equal(list.length, 1)
  t.equal(list[0].seq, [...existing][0])
  const a = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.same(a.balance, { available: 989.5, blocked: 10.5, gross: 1000 })
})

t.test('50 concurrent directory transfers sharing an idempotency key make exactly one transfer', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 1000, fee: 0 })
  const responses = await Promise.all(Array.from({ length: 50 }, () => app.inject({
    method: 'POST',
    url: '/dict/pix',
    headers: { ...bearer(acc.token), 'x-idempotency-key': '5d6e7f80-9a0b-4c1d-8e2f-3a4b5c6d7e8f' },
    payload: { pixKey: 'joao.souza@example.com', payment: { currency: 'BRL', amount: 10 } },
  })))
  t.ok(responses.every(r => r.statusCode === 201))
  t.equal(new Set(responses.map(r => r.body)).size, 1, 'every answer is the same transfer')
  await advance(app, 50)
  const list = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json().transactions
  t.equal(list.length, 1)
  const a = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.same(a.balance, { available: 990, blocked: 0, gross: 990 })
  t.equal(cashOutEvents(emitted).length, 1)
})
