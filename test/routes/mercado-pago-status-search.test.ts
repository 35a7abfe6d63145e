import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, buildTestApp, newAccount } from '../helpers/app.js'
import { enumerations } from '../helpers/enumerations.js'

/**
 * GET /v1/payments/search by `status` or `status_detail` (docs/mercado-pago.md, Search) is read from the lists of the
 * charges' stages (server/services/charge-stages.ts), a page at a time: it answers what a pass over
 * the payments answers (a filter the lists do not hold, `payment_method_id=pix`, which every payment
 * matches, sends a query down that pass) through every change of a payment's status, and reads the
 * page's payments only, also after a snapshot import and an account's reset.
 */

interface MpAccount { accountId: number, mercadoPago: { accessToken: string } }
interface Payment { id: number, status: string, status_detail: string, point_of_interaction: { transaction_data: { qr_code: string } } }
let keys = 0
const mp = (app: FastifyInstance, acc: MpAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'x-idempotency-key': `k${++keys}` } : {}), ...headers }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}) })
const pix = (ref: string, amount = 10, more: Record<string, unknown> = {}) => ({ transaction_amount: amount, payment_method_id: 'pix', external_reference: ref, payer: { email: 'p@example.com' }, ...more })
const RENDER = { 'x-render-in-process-refunds': 'true' }
const STATUSES = ['pending', 'approved', 'refunded', 'cancelled', 'rejected', 'in_process', 'nonsense'] as const
const DETAILS = ['pending_waiting_transfer', 'accredited', 'partially_refunded', 'refunded', 'expired', 'by_collector', 'rejected_by_bank', 'cc_rejected_other_reason'] as const
/** A status with a status_detail: of it, of another status, of none. */
const BOTH = ['status=approved&status_detail=partially_refunded', 'status=approved&status_detail=accredited', 'status=cancelled&status_detail=expired', 'status=pending&status_detail=accredited', 'status=refunded&status_detail=nonsense']

/** Payments of an account through every change of status, an hour apart, references repeating; what each became. */
async function everyTransition (app: FastifyInstance, acc: MpAccount): Promise<Map<number, string>> {
  const became = new Map<number, string>()
  const make = async (ref: string, amount = 10, headers: Record<string, string> = {}, more: Record<string, unknown> = {}): Promise<Payment> => {
    const res = await mp(app, acc, 'POST', '/v1/payments', pix(ref, amount, more), headers)
    if (res.statusCode !== 201) throw new Error(res.body)
    await advance(app, 3_600_000)
    return res.json()
  }
  const pay = async (p: Payment) => {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
    if (res.statusCode >= 300) throw new Error(res.body)
  }
  const refund = async (p: Payment, amount: number, headers: Record<string, string> = {}) => {
    const res = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount }, { ...RENDER, ...headers })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
  const paidLate = await make('r0') // paid last of all: among the oldest of the approved
  const open = await make('r1')
  const paid = await make('r2')
  const partly = await make('r0', 10)
  const wholly = await make('r1', 10)
  const twice = await make('r2', 10)
  const failing = await make('r0', 10)
  // Its date_of_expiration an hour and a half after T0 (12:00 in São Paulo): expired by the clock.
  const expiring = await make('r1', 10, {}, { date_of_expiration: '2026-03-10T19:30:00.000-03:00' })
  const cancelled = await make('r2')
  const refused = await make('r0', 5, { 'x-sandbox-scenario': 'PAYMENT_ERROR' })
  const noReference = (await mp(app, acc, 'POST', '/v1/payments', { transaction_amount: 3, payment_method_id: 'pix', payer: { email: 'p@example.com' } })).json() as Payment
  const sameInstant = await make('r1')
  for (const p of [paid, partly, wholly, twice, failing, refused, noReference]) await pay(p)
  await refund(partly, 4)
  await refund(wholly, 10)
  await refund(twice, 6)
  await refund(failing, 3, { 'x-sandbox-scenario': 'REFUND_FAILED' })
  await advance(app, 60_000)
  await refund(twice, 4) // the rest: wholly refunded in two
  t.equal((await mp(app, acc, 'PUT', `/v1/payments/${cancelled.id}`, { status: 'cancelled' })).statusCode, 200)
  await advance(app, 60_000)
  await pay(paidLate)
  for (const [p, status] of [[paidLate, 'approved'], [open, 'pending'], [paid, 'approved'], [partly, 'approved'], [wholly, 'refunded'], [twice, 'refunded'], [failing, 'approved'], [expiring, 'cancelled'], [cancelled, 'cancelled'], [refused, 'rejected'], [noReference, 'approved'], [sameInstant, 'pending']] as const) {
    became.set(p.id, status)
  }
  return became
}

const search = async (app: FastifyInstance, acc: MpAccount, query: string) => {
  const res = await mp(app, acc, 'GET', `/v1/payments/search?${query}`)
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`)
  return res.json() as { paging: { total: number, limit: number, offset: number }, results: Payment[] }
}

/**
 * Every status, alone or with a reference, in every order and page: what the pass over the payments
 * answers. Every status_detail, alone or with a status, the same in fewer orders and pages.
 */
async function sameAsThePass (t: Test, app: FastifyInstance, acc: MpAccount, became: ReadonlyMap<number, string>): Promise<void> {
  const newestFirst = [...became.keys()].sort((a, b) => b - a)
  const details = new Map((await search(app, acc, 'limit=50')).results.map(p => [p.id, p.status_detail]))
  for (const filter of [...DETAILS.map(d => `status_detail=${d}`), ...BOTH]) {
    const wanted = new URLSearchParams(filter)
    const expected = newestFirst.filter(id => details.get(id) === wanted.get('status_detail') && (!wanted.has('status') || became.get(id) === wanted.get('status')))
    const got = await search(app, acc, filter)
    t.same(got.results.map(p => p.id), expected, `${filter}: its payments, the newest first`)
    t.equal(got.paging.total, expected.length)
    for (const ref of ['', 'external_reference=r0&']) {
      for (const order of ['', 'sort=id&criteria=asc&']) {
        for (const page of ['', 'limit=1&offset=1', 'begin_date=NOW-9HOURS&end_date=NOW-4HOURS']) {
          const query = `${ref}${order}${filter}&${page}`
          t.same(await search(app, acc, query), await search(app, acc, `${query}&payment_method_id=pix`), query)
        }
      }
    }
  }
  for (const status of STATUSES) {
    const expected = newestFirst.filter(id => became.get(id) === status)
    const got = await search(app, acc, `status=${status}`)
    t.same(got.results.map(p => p.id), expected, `status=${status}: its payments, the newest first`)
    t.equal(got.paging.total, expected.length)
    for (const p of got.results) t.equal(p.status, status)
    for (const ref of ['', 'external_reference=r0&', 'external_reference=r1&', 'external_reference=none&']) {
      for (const order of ['', 'sort=id&criteria=asc&', 'sort=date_created&criteria=asc&', 'sort=id&criteria=desc&']) {
        for (const page of ['', 'limit=2&offset=1', 'limit=1&offset=3', 'begin_date=NOW-9HOURS&end_date=NOW-4HOURS']) {
          const query = `${ref}${order}status=${status}&${page}`
          t.same(await search(app, acc, query), await search(app, acc, `${query}&payment_method_id=pix`), query)
        }
      }
    }
  }
}

/** More payments than a page, then a search by status reads its page of them only. */
async function readsThePage (t: Test, app: FastifyInstance, acc: MpAccount, label: string): Promise<void> {
  for (let n = 0; n < 40; n++) t.equal((await mp(app, acc, 'POST', '/v1/payments', pix(`many-${n % 2}`))).statusCode, 201)
  const all = (await search(app, acc, 'limit=50')).paging.total
  t.ok(all >= 40, `${label}: the account holds ${all} payments`)
  for (const query of ['status=pending&limit=5', 'status=pending&limit=5&offset=7', 'status=cancelled&limit=3', 'status=approved&external_reference=many-1&limit=5', 'status=pending&external_reference=many-1&sort=id&criteria=asc&limit=5',
    'status_detail=pending_waiting_transfer&limit=5&offset=3', 'status=approved&status_detail=accredited&external_reference=many-1&limit=5']) {
    const { result, read } = await enumerations(app, ['transactions'], () => search(app, acc, query))
    t.ok(result.results.length > 0 || result.paging.total === 0, query)
    t.ok(read.transactions.size <= 5, `${label}: ${query} read ${read.transactions.size} payments, not the account's ${all}`)
  }
  const pass = await enumerations(app, ['transactions'], () => search(app, acc, 'status=pending&limit=5&payment_method_id=pix'))
  t.ok(pass.read.transactions.size >= 40, `${label}: what a pass reads (${pass.read.transactions.size}), which the count would see`)
}

t.test('a search by status answers what the pass over the payments answers, through every change of status, and reads its page only', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const other = await newAccount(app) as unknown as MpAccount
  await mp(app, other, 'POST', '/v1/payments', pix('r0'))
  const became = await everyTransition(app, acc)
  const got = new Map((await search(app, acc, 'limit=50')).results.map(p => [p.id, p.status]))
  t.same(got, became, 'each payment has the status its changes gave it')
  t.same((await search(app, acc, 'status=approved&sort=date_created&criteria=asc')).results.map(p => p.id)[0], [...became.keys()][0], 'a payment paid last is still the oldest of the approved')
  await sameAsThePass(t, app, acc, became)

  // A snapshot exported and imported: the lists are made again from the records.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await sameAsThePass(t, app, acc, became)
  await readsThePage(t, app, acc, 'after an import')
  t.equal((await search(app, other, 'status=pending')).paging.total, 1, 'another account\'s payments apart')

  // The account reset to its first state: no payment, then new ones listed by status again.
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  const fresh = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json() as MpAccount
  for (const status of STATUSES) t.equal((await search(app, fresh, `status=${status}`)).paging.total, 0, `after the reset, no ${status} payment`)
  await readsThePage(t, app, fresh, 'after a reset')
  t.equal((await search(app, other, 'status=pending')).paging.total, 1, 'another account\'s payments untouched by the reset')
})

t.test('a refund rolled back by a failed unit leaves its payment where it was', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const p = (await mp(app, acc, 'POST', '/v1/payments', pix('x', 10))).json() as Payment
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  const charge = app.sandbox.store.transactionsOf(acc.accountId).find(tx => tx.kind === 'CASH_IN')!
  // A MED return settles at once in the unit that makes it; the unit fails after, and the store puts everything back.
  t.throws(() => app.sandbox.store.transact(() => {
    app.sandbox.refunds.medReturn(charge, 'MED_FRAUDE', 'fraude')
    t.equal((app.sandbox.charges.codeChargesMadeIn(acc.accountId, ['refunded'], undefined, { from: 0, to: Date.parse('2100-01-01') }, 0, 10, true))?.total, 1, 'wholly returned inside the unit')
    throw new Error('the unit fails')
  }), /the unit fails/)
  t.same((await search(app, acc, 'status=refunded')).paging.total, 0, 'rolled back: not refunded')
  t.same((await search(app, acc, 'status=approved')).results.map(r => r.id), [p.id], 'still approved')
  t.same(await search(app, acc, 'status=approved'), await search(app, acc, 'status=approved&payment_method_id=pix'))
})

t.test('a search by the payer reads the payer\'s payments only, and answers what a pass over the account\'s payments would', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const few: Payment[] = []
  for (let n = 0; n < 30; n++) {
    const email = n % 10 === 3 ? 'few@example.com' : 'many@example.com'
    const res = await mp(app, acc, 'POST', '/v1/payments', pix(`r${n % 2}`, 10, { payer: { email } }))
    t.equal(res.statusCode, 201)
    if (email === 'few@example.com') few.push(res.json())
    await advance(app, 60_000)
  }
  const paid = few[1]
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: paid.point_of_interaction.transaction_data.qr_code } })
  const payerId = (await search(app, acc, `id=${few[0].id}`)).results[0] as unknown as { payer: { id: string } }
  const newestFirst = few.map(p => p.id).reverse()
  for (const [query, expected] of [
    ['payer.email=few@example.com', newestFirst],
    [`payer.id=${payerId.payer.id}`, newestFirst],
    ['payer.email=few@example.com&status=approved', [paid.id]],
    ['payer.email=few@example.com&status_detail=pending_waiting_transfer&sort=id&criteria=asc', few.filter(p => p !== paid).map(p => p.id)],
    ['payer.email=few@example.com&sort=date_last_updated', [paid.id, ...newestFirst.filter(id => id !== paid.id)]],
    [`payer.id=${payerId.payer.id}&payer.email=many@example.com`, []],
    ['payer.email=nobody@example.com', []],
  ] as const) {
    const { result, read } = await enumerations(app, ['transactions'], () => search(app, acc, query))
    t.same(result.results.map(p => p.id), expected, query)
    t.equal(result.paging.total, expected.length, `${query}: total`)
    t.ok(read.transactions.size <= few.length, `${query}: read ${read.transactions.size} payments, not the account's 30`)
  }
  // A snapshot exported and imported: the payer's list is made again from the records.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const { result, read } = await enumerations(app, ['transactions'], () => search(app, acc, 'payer.email=few@example.com&status=pending'))
  t.same(result.results.map(p => p.id), newestFirst.filter(id => id !== paid.id), 'after an import')
  t.ok(read.transactions.size <= few.length, `after an import: read ${read.transactions.size} payments`)
})
