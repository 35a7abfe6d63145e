import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { T0, balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'

/**
 * Balances in both families (docs/gateway.md §2.2, 4 rows 2-3) and the control plane that moves them
 * (POST /__sandbox/accounts/:id/balance): set, credit, debit, and every refusal changes nothing.
 */

async function readBoth (app: FastifyInstance, token: string) {
  const central = await app.inject({ method: 'GET', url: '/accounts/balances', headers: bearer(token) })
  const standard = await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  const alias = await app.inject({ method: 'GET', url: '/api/balance', headers: bearer(token) })
  return { central, standard, alias }
}

/** Both formats agree with each other and with the expected available/blocked amounts (docs/gateway.md §2.2 mapping). */
async function assertBalances (t: Test, app: FastifyInstance, token: string, available: number, blocked: number) {
  const { central, standard, alias } = await readBoth(app, token)
  for (const res of [central, standard, alias]) t.equal(res.statusCode, 200)
  const now = new Date(app.sandbox.clock.now()).toISOString()
  t.same(central.json(), { data: [{ eventDate: now, balanceAmount: { available, blocked, overdraft: 0 } }] }, 'central-bank format')
  const expected = { grossBalance: Math.round((available + blocked) * 100) / 100, blockedBalance: blocked, netBalance: available, consultedAt: now }
  t.same(standard.json(), expected, 'standard format: gross = available + blocked, net = available')
  t.same(alias.json(), expected, '/api/balance answers the same')
}

const change = (app: FastifyInstance, id: number, payload: unknown) =>
  app.inject({ method: 'POST', url: `/__sandbox/accounts/${id}/balance`, payload: payload as Record<string, unknown> })

t.test('both formats at the opening balance, exact keys', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 1234.56 })
  await assertBalances(t, app, a.token, 1234.56, 0)
  const central = (await readBoth(app, a.token)).central.json()
  t.equal(central.data.length, 1, 'currently always one item')
  t.same(Object.keys(central.data[0]).sort(), ['balanceAmount', 'eventDate'])
  t.equal(central.data[0].eventDate, T0, 'eventDate is the sandbox time of the query')
})

t.test('eventDate and consultedAt follow the sandbox clock', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  const { central, standard } = await readBoth(app, a.token)
  t.equal(central.json().data[0].eventDate, '2026-03-10T15:01:00.000Z')
  t.equal(standard.json().consultedAt, '2026-03-10T15:01:00.000Z')
})

t.test('blocked amounts are reported in both formats with the 2.2 mapping', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100 })
  // Reserve money as an outgoing payment in processing would (the ledger's own operation).
  const { reserve } = await import('../../server/domain/ledger.js')
  // Through the store's write path, as a service does.
  t.ok(app.sandbox.store.transact(() => app.sandbox.store.update('accounts', a.accountId, account => reserve(account, 3050))))
  await assertBalances(t, app, a.token, 69.5, 30.5)
})

t.test('set the available balance', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 10 })
  const res = await change(app, a.accountId, { set: 250.75 })
  t.equal(res.statusCode, 200)
  t.same(res.json().balance, { available: 250.75, blocked: 0, gross: 250.75 })
  t.equal(res.json().invariantHolds, true)
  t.equal(res.json().totals.adjustments, 240.75, 'recorded as an adjustment')
  await assertBalances(t, app, a.token, 250.75, 0)
  t.equal((await change(app, a.accountId, { set: 0 })).statusCode, 200, 'set to zero is allowed')
  await assertBalances(t, app, a.token, 0, 0)
})

t.test('credit, and a negative credit debits', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 10 })
  t.equal((await change(app, a.accountId, { credit: 0.29 })).statusCode, 200, '0.29 is exactly 29 cents')
  await assertBalances(t, app, a.token, 10.29, 0)
  t.equal((await change(app, a.accountId, { credit: -5.29 })).statusCode, 200)
  await assertBalances(t, app, a.token, 5, 0)
  t.equal((await change(app, a.accountId, { credit: -5 })).statusCode, 200, 'down to exactly zero')
  await assertBalances(t, app, a.token, 0, 0)
  t.same(await balanceOf(app, a.accountId), { available: 0, blocked: 0, invariantHolds: true })
})

t.test('refusals: 400 in the sandbox shape, balance unchanged', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 10 })
  const cases: Array<[string, unknown, string]> = [
    ['credit below zero', { credit: -10.01 }, 'INSUFFICIENT_BALANCE'],
    ['more than 2 decimals (credit)', { credit: 1.005 }, 'HTTP_ERROR'],
    ['more than 2 decimals (set)', { set: 1.001 }, 'HTTP_ERROR'],
    ['more than 2 decimals (negative credit)', { credit: -0.001 }, 'HTTP_ERROR'],
    ['neither field', {}, 'HTTP_ERROR'],
    ['both fields', { set: 1, credit: 1 }, 'HTTP_ERROR'],
    ['negative set', { set: -1 }, 'HTTP_ERROR'],
    ['a string amount', { credit: '10' }, 'HTTP_ERROR'],
    ['null', { set: null }, 'HTTP_ERROR'],
  ]
  for (const [why, payload, code] of cases) {
    const res = await change(app, a.accountId, payload)
    t.equal(res.statusCode, 400, `${why}: 400`)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'], `${why}: sandbox shape`)
    t.equal(body.code, code, `${why}: code`)
    t.type(body.message, 'string')
  }
  await assertBalances(t, app, a.token, 10, 0)
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })).json()
  t.equal(view.totals.adjustments, 0, 'no adjustment was recorded')
})

t.test('unknown account: 404; bad id: 400', async t => {
  const app = await buildTestApp(t)
  const res = await change(app, 999, { set: 1 })
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'ACCOUNT_NOT_FOUND')
  t.equal((await change(app, 0, { set: 1 })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/accounts/abc/balance', payload: { set: 1 } })).statusCode, 400)
})

t.test('a change on one account leaves the others alone', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 10 })
  const b = await newAccount(app, { balance: 20 })
  await change(app, a.accountId, { credit: 5 })
  await assertBalances(t, app, a.token, 15, 0)
  await assertBalances(t, app, b.token, 20, 0)
  t.equal((await balanceOf(app, 1)).available, 10000, 'the fixture account is untouched')
})
