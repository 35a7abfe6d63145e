import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody } from '../helpers/payins.js'

/** GET /v1/payments/search and the scenarios that apply to Mercado Pago's routes (docs/mercado-pago.md). */

interface MpAccount { accountId: number, mercadoPago: { accessToken: string } }
let keys = 0
const mp = (app: FastifyInstance, acc: MpAccount, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'x-idempotency-key': `k${++keys}` } : {}), ...headers }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}) })
const pix = (ref: string, amount = 10) => ({ transaction_amount: amount, payment_method_id: 'pix', external_reference: ref, payer: { email: 'p@example.com' } })

t.test('search: the account\'s own payments, filtered, sorted, paged, in a NOW-<n>UNIT range', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app) as unknown as MpAccount
  const other = await newAccount(app) as unknown as MpAccount
  await mp(app, other, 'POST', '/v1/payments', pix('theirs'))
  const ids: number[] = []
  for (const ref of ['a', 'b', 'c']) {
    ids.push((await mp(app, acc, 'POST', '/v1/payments', pix(ref))).json().id)
    await advance(app, 3_600_000)
  }
  const all = (await mp(app, acc, 'GET', '/v1/payments/search')).json()
  t.same(all.paging, { total: 3, limit: 30, offset: 0 })
  t.same(all.results.map((p: { id: number }) => p.id), [...ids].reverse(), 'date_created desc by default; another account\'s not among them')
  const asc = (await mp(app, acc, 'GET', '/v1/payments/search?sort=id&criteria=asc&limit=2&offset=1')).json()
  t.same(asc.results.map((p: { id: number }) => p.id), ids.slice(1))
  t.same(asc.paging, { total: 3, limit: 2, offset: 1 })
  t.equal((await mp(app, acc, 'GET', '/v1/payments/search?limit=500')).json().paging.limit, 50, 'limit clamped to 50')
  const byRef = (await mp(app, acc, 'GET', '/v1/payments/search?external_reference=b')).json()
  t.same(byRef.results.map((p: { id: number }) => p.id), [ids[1]])
  const recent = (await mp(app, acc, 'GET', '/v1/payments/search?range=date_created&begin_date=NOW-2HOURS&end_date=NOW')).json()
  t.equal(recent.paging.total, 2, 'the last two hours of the sandbox clock')
  t.equal((await mp(app, acc, 'GET', '/v1/payments/search?begin_date=NOW-1DAYS')).json().paging.total, 3)
  t.equal((await mp(app, acc, 'GET', '/v1/payments/search?status=approved')).json().paging.total, 0)
  for (const [query, code] of [['sort=amount', 1003], ['criteria=up', 1004], ['begin_date=yesterday', 1001], ['begin_date=NOW-400DAYS', 1001], ['offset=10001', 1000], ['begin_date=2025-01-01T00:00:00Z&end_date=NOW', 9062]] as const) {
    const res = await mp(app, acc, 'GET', `/v1/payments/search?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { cause: [{ code }] }, query)
  }
})

t.test('search read as a page of the lists answers what a pass over the payments answers, whatever the range, reference, sort and page', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app) as unknown as MpAccount
  // Twelve payments an hour apart, two at the same instant, references repeating, some without one.
  for (let n = 0; n < 12; n++) {
    const body = n % 4 === 3 ? { transaction_amount: 1, payment_method_id: 'pix', payer: { email: 'p@example.com' } } : pix(`r${n % 3}`, n + 1)
    await mp(app, acc, 'POST', '/v1/payments', body)
    if (n !== 5) await advance(app, 3_600_000)
  }
  const ids = (query: string) => mp(app, acc, 'GET', `/v1/payments/search?${query}`).then(r => { t.equal(r.statusCode, 200, query); return r.json() })
  for (const range of ['', 'begin_date=NOW-5HOURS&end_date=NOW-2HOURS&']) {
    for (const ref of ['', 'external_reference=r1&', 'external_reference=none&']) {
      for (const order of ['', 'sort=id&criteria=asc&', 'sort=date_created&criteria=asc&']) {
        for (const page of ['', 'limit=3&offset=2', 'limit=5&offset=9']) {
          const query = `${range}${ref}${order}${page}`
          // payment_method_id=pix matches every payment, and sends the query down the pass over them.
          t.same(await ids(query), await ids(`${query}&payment_method_id=pix`), query)
        }
      }
    }
  }
  t.equal((await ids('external_reference=r1')).paging.total, 3)
})

t.test('scenarios: AUTO_PAY pays a payment (credit, approved); REFUND_DELAY keeps a refund in_process until it settles; RATE_LIMITED in Mercado Pago\'s shape', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const p = (await mp(app, acc, 'POST', '/v1/payments', pix('auto', 12), { 'x-sandbox-scenario': 'AUTO_PAY;ms=1000' })).json()
  t.equal(p.status, 'pending')
  await advance(app, 1000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status: 'approved', status_detail: 'accredited' })
  const render = { 'x-render-in-process-refunds': 'true' }
  const refund = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 2 }, { 'x-sandbox-scenario': 'REFUND_DELAY;ms=5000', ...render })
  t.equal(refund.statusCode, 201)
  t.match(refund.json(), { status: 'in_process', amount: 2, labels: ['hidden', 'contingency'] })
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().balance, { available: 10, blocked: 2 })
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json().transaction_amount_refunded, 0)
  // The refunds' reads show one in process only to a client that sends the header.
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds`, undefined, render)).json(), [{ id: refund.json().id, status: 'in_process' }])
  t.same((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds`)).json(), [])
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds/${refund.json().id}`)).statusCode, 404)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds/${refund.json().id}`, undefined, render)).json().status, 'in_process')
  await advance(app, 5000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds`)).json(), [{ status: 'approved' }])
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status_detail: 'partially_refunded', transaction_amount_refunded: 2 })
  const limited = await mp(app, acc, 'GET', '/v1/payments/search', undefined, { 'x-sandbox-scenario': 'RATE_LIMITED;retryAfter=3' })
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['retry-after'], '3')
  t.same(limited.json(), { message: 'Too many requests', error: 'too_many_requests', status: 429, cause: [] })
})

t.test('X-Render-In-Process-Refunds: a refund held in process answers 400 without it (the refund goes on), 201 in_process with it; once settled, 201 either way', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const p = (await mp(app, acc, 'POST', '/v1/payments', pix('contingency', 10))).json()
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  const key = { 'x-idempotency-key': 'held' }
  const hidden = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 4 }, { 'x-sandbox-scenario': 'REFUND_DELAY;ms=5000', ...key })
  t.equal(hidden.statusCode, 400, hidden.body)
  t.same(hidden.json(), { message: 'The refund is in process', error: 'bad_request', status: 400, cause: [] })
  // The refund was made all the same: the money is held for it.
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json(), { balance: { available: 6, blocked: 4 }, invariantHolds: true })
  // The same key, now with the header: the same refund, in process (nothing made twice).
  const shown = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 4 }, { 'x-render-in-process-refunds': 'true', ...key })
  t.equal(shown.statusCode, 201, shown.body)
  t.match(shown.json(), { status: 'in_process', amount: 4, amount_refunded_to_payer: 0 })
  t.equal(app.sandbox.refunds.refundsOf(app.sandbox.store.transactionsOf(acc.accountId).find(tx => tx.kind === 'CASH_IN')!).length, 1)
  await advance(app, 5000)
  const settled = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 4 }, key)
  t.equal(settled.statusCode, 201, 'settled: the replay without the header is the approved refund')
  t.match(settled.json(), { id: shown.json().id, status: 'approved', labels: [] })
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json(), { balance: { available: 6, blocked: 0 }, invariantHolds: true })
  // A refund approved at once answers 201 with or without the header.
  const direct = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 1 })
  t.equal(direct.statusCode, 201)
  t.equal(direct.json().status, 'approved')
})

t.test('scenarios: PAYMENT_ERROR rejects the payment when paid (nothing credited), REFUND_FAILED gives the money back, PROVIDER_UNAVAILABLE makes nothing', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const refused = (await mp(app, acc, 'POST', '/v1/payments', pix('err', 5), { 'x-sandbox-scenario': 'PAYMENT_ERROR' })).json()
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: refused.point_of_interaction.transaction_data.qr_code } })
  t.match((await mp(app, acc, 'GET', `/v1/payments/${refused.id}`)).json(), { status: 'rejected', status_detail: 'rejected_by_bank' })
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json(), { balance: { available: 0 }, invariantHolds: true })

  const p = (await mp(app, acc, 'POST', '/v1/payments', pix('ok', 8))).json()
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  const refund = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 3 }, { 'x-sandbox-scenario': 'REFUND_FAILED', 'x-render-in-process-refunds': 'true' })
  t.match(refund.json(), { status: 'in_process' })
  await advance(app, 60_000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds/${refund.json().id}`)).json(), { status: 'rejected', amount_refunded_to_payer: 0 })
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status: 'approved', status_detail: 'accredited', transaction_amount_refunded: 0 })
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json(), { balance: { available: 8, blocked: 0 }, invariantHolds: true })

  const before = app.sandbox.store.transactionsOf(acc.accountId).length
  const down = await mp(app, acc, 'POST', '/v1/payments', pix('down'), { 'x-sandbox-scenario': 'PROVIDER_UNAVAILABLE' })
  t.equal(down.statusCode, 500)
  t.same(down.json(), { message: 'Internal server error', error: 'internal_server_error', status: 500, cause: [] })
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, before, 'nothing made')
})

t.test('a scenario armed for the account bends its next Mercado Pago request, and only the account\'s', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app) as unknown as MpAccount
  const other = await newAccount(app) as unknown as MpAccount
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario: 'RATE_LIMITED', times: 1 } })
  t.equal(armed.statusCode, 201, armed.body)
  t.equal((await mp(app, other, 'GET', '/v1/payments/search')).statusCode, 200, 'another account\'s request is not bent')
  const limited = await mp(app, acc, 'POST', '/v1/payments', pix('armed'))
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['x-sandbox-scenario-applied'], 'RATE_LIMITED')
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0, 'nothing made')
  t.equal((await mp(app, acc, 'POST', '/v1/payments', pix('armed'))).statusCode, 201, 'armed once')
})

t.test('POLICY_AGENT_UNAUTHORIZED: Mercado Pago\'s PolicyAgent 403 on a payment or a refund, nothing made, moved or notified; the other dialects\' operations do not take it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app) as unknown as MpAccount & { token: string }
  await app.inject({ method: 'PUT', url: `/__sandbox/accounts/${acc.accountId}/mercado-pago/webhook`, payload: { url: 'http://127.0.0.1:9/mp' } })
  const POLICY = { message: 'At least one policy returned UNAUTHORIZED.', code: 'PA_UNAUTHORIZED_RESULT_FROM_POLICIES', status: 403, blocked_by: 'PolicyAgent' }
  const deliveries = () => Object.values(app.sandbox.store.data.deliveries).filter(d => d.accountId === acc.accountId).length
  const records = () => Object.values(app.sandbox.store.data.transactions).filter(tx => tx.accountId === acc.accountId).length
  const balance = async () => (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().balance

  const refused = await mp(app, acc, 'POST', '/v1/payments', pix('blocked'), { 'x-sandbox-scenario': 'POLICY_AGENT_UNAUTHORIZED' })
  t.equal(refused.statusCode, 403, refused.body)
  t.same(refused.json(), POLICY)
  t.equal(records(), 0, 'no payment')
  t.equal(deliveries(), 0, 'nothing notified')
  t.equal((await mp(app, acc, 'GET', '/v1/payments/search')).json().paging.total, 0)

  const p = (await mp(app, acc, 'POST', '/v1/payments', pix('paid', 20))).json()
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })).statusCode, 201)
  const [before, sent, made] = [await balance(), deliveries(), records()]
  const noRefund = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 5 }, { 'x-sandbox-scenario': 'POLICY_AGENT_UNAUTHORIZED' })
  t.equal(noRefund.statusCode, 403, noRefund.body)
  t.same(noRefund.json(), POLICY)
  t.same(await balance(), before, 'no money moved')
  t.equal(deliveries(), sent, 'nothing notified')
  t.equal(records(), made, 'no refund')
  t.same((await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds`)).json(), [])

  // The gateway's cash-in and refund-in share the endpoints, not the scenario: by header it is unknown there.
  const gateway = await app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { authorization: `Bearer ${acc.token}`, 'x-sandbox-scenario': 'POLICY_AGENT_UNAUTHORIZED' }, payload: cashInBody({ value: 1 }) })
  t.equal(gateway.statusCode, 400, gateway.body)
  t.equal(gateway.json().errorCode ?? gateway.json().code, 'UNKNOWN_SCENARIO')
  // Armed for the account at cash-in: the gateway's cash-in leaves it armed, Mercado Pago's next payment takes it.
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario: 'POLICY_AGENT_UNAUTHORIZED', endpoint: 'cash-in', times: 1 } })
  t.equal(armed.statusCode, 201, armed.body)
  const cashIn = await app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { authorization: `Bearer ${acc.token}` }, payload: cashInBody({ value: 1 }) })
  t.equal(cashIn.statusCode, 201, cashIn.body)
  t.equal((await mp(app, acc, 'POST', '/v1/payments', pix('armed'))).statusCode, 403)
  t.equal((await mp(app, acc, 'POST', '/v1/payments', pix('after'))).statusCode, 201, 'used up')
})

t.test('the catalogue lists POLICY_AGENT_UNAUTHORIZED with the dialect that takes it', async t => {
  const app = await buildTestApp(t)
  const listed = (await app.inject({ method: 'GET', url: '/__sandbox/scenarios' })).json().scenarios
  t.match(listed.find((s: { name: string }) => s.name === 'POLICY_AGENT_UNAUTHORIZED'), { endpoints: ['cash-in', 'refund-in'], dialects: ['mercado-pago'], timing: 'sync' })
  t.notOk(listed.find((s: { name: string }) => s.name === 'AUTO_PAY').dialects, 'a scenario of every dialect names none')
})
