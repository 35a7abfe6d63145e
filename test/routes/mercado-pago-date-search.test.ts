import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, buildTestApp, newAccount } from '../helpers/app.js'
import { enumerations } from '../helpers/enumerations.js'

/**
 * GET /v1/payments/search over a range of `date_last_updated`, `date_approved` or `money_release_date`
 * (docs/mercado-pago.md, Search) reads the account's payments in that date's order
 * (server/services/charge-stages.ts): a page when it sorts by the same date with no filter, else the
 * payments within the range. Each answer is checked against the dates of the payments as the API
 * shows them, through every change of status, after a snapshot import, after a rollback and after
 * an account's reset; and what a search reads is its page, or its range.
 */

interface MpAccount { accountId: number, mercadoPago: { accessToken: string } }
interface View {
  id: number
  status: string
  external_reference: string | null
  date_created: string
  date_last_updated: string
  date_approved: string | null
  money_release_date: string | null
  point_of_interaction: { transaction_data: { qr_code: string } }
}
type DateField = 'date_created' | 'date_last_updated' | 'date_approved' | 'money_release_date'

let keys = 0
const mp = (app: FastifyInstance, acc: MpAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'x-idempotency-key': `d${++keys}` } : {}), ...headers }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}) })
const pix = (ref: string | undefined, amount = 10, more: Record<string, unknown> = {}) => ({ transaction_amount: amount, payment_method_id: 'pix', ...(ref !== undefined ? { external_reference: ref } : {}), payer: { email: 'p@example.com' }, ...more })

const RANGES: readonly DateField[] = ['date_created', 'date_last_updated', 'date_approved', 'money_release_date']
const SORTS = [...RANGES, 'id'] as const
const HOUR = 3_600_000
/** T0 (test/helpers/app.ts) is 15:00Z: a range over every payment, and one over some of the hours after. */
const WINDOWS = [['2026-03-01T00:00:00.000Z', '2026-03-20T00:00:00.000Z'], ['2026-03-10T18:00:00.000Z', '2026-03-10T23:00:00.000Z']] as const

const search = async (app: FastifyInstance, acc: MpAccount, query: string) => {
  const res = await mp(app, acc, 'GET', `/v1/payments/search?${query}`)
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`)
  return res.json() as { paging: { total: number, limit: number, offset: number }, results: View[] }
}

/** What a search answers, worked out from the payments' dates as the API shows them: those of the range within it, sorted, the id deciding a tie. */
function expected (all: readonly View[], range: DateField, sort: typeof SORTS[number], criteria: 'asc' | 'desc', [begin, end]: readonly [string, string], filter: { ref?: string, status?: string }): number[] {
  const at = (v: View, field: typeof SORTS[number]): number | undefined => field === 'id' ? v.id : v[field] === null ? undefined : Date.parse(v[field])
  const sign = criteria === 'asc' ? 1 : -1
  return all
    .filter(v => { const x = at(v, range); return x !== undefined && x >= Date.parse(begin) && x <= Date.parse(end) })
    .filter(v => (filter.ref === undefined || v.external_reference === filter.ref) && (filter.status === undefined || v.status === filter.status))
    .sort((a, b) => sign * (((at(a, sort) ?? -Infinity) - (at(b, sort) ?? -Infinity)) || (a.id - b.id)))
    .map(v => v.id)
}

/** Payments an hour apart that end in every status, paid in another order than made, two paid in the same instant and two made in the same instant. */
async function everyStatus (app: FastifyInstance, acc: MpAccount): Promise<void> {
  const make = async (ref: string | undefined, more: Record<string, unknown> = {}, headers: Record<string, string> = {}, wait = HOUR): Promise<View> => {
    const res = await mp(app, acc, 'POST', '/v1/payments', pix(ref, 10, more), headers)
    if (res.statusCode !== 201) throw new Error(res.body)
    await advance(app, wait)
    return res.json()
  }
  const pay = async (p: View) => {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
    if (res.statusCode >= 300) throw new Error(res.body)
  }
  const refund = async (p: View, amount: number) => {
    const res = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount }, { 'x-render-in-process-refunds': 'true' })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
  const paidLast = await make('r0')
  await make('r1') // never paid
  const paidEarly = await make('r2')
  const partly = await make('r0')
  const wholly = await make('r1')
  // Made at 20:00Z, its date_of_expiration half an hour later: expired by the clock.
  await make('r2', { date_of_expiration: '2026-03-10T17:30:00.000-03:00' })
  const cancelled = await make('r0')
  const refused = await make('r1', {}, { 'x-sandbox-scenario': 'PAYMENT_ERROR' })
  const sameInstant = await make(undefined, {}, {}, 0)
  await make('r2') // made in the same instant as the one before, never paid
  const moved = await make('r0') // its expiry moved later: updated then, never paid
  await pay(wholly)
  await advance(app, HOUR)
  for (const p of [paidEarly, sameInstant, partly, refused]) await pay(p)
  await advance(app, HOUR)
  await refund(partly, 4)
  await refund(wholly, 10)
  if ((await mp(app, acc, 'PUT', `/v1/payments/${cancelled.id}`, { status: 'cancelled' })).statusCode !== 200) throw new Error('cancel')
  await advance(app, HOUR)
  const put = await mp(app, acc, 'PUT', `/v1/payments/${moved.id}`, { date_of_expiration: '2026-03-13T12:00:00.000-03:00' })
  if (put.statusCode !== 200 || put.json().date_last_updated === moved.date_last_updated) throw new Error(`moving the expiry updates the payment: ${put.statusCode}, date_last_updated ${String(put.json().date_last_updated)}`)
  await advance(app, HOUR)
  await pay(paidLast)
  await advance(app, HOUR)
}

/** Every range, sort, order, window, page and filter answers what the payments' dates say. */
async function sameAsTheDates (t: Test, app: FastifyInstance, acc: MpAccount, label: string): Promise<void> {
  const all = (await search(app, acc, 'limit=50')).results
  let checked = 0
  for (const range of RANGES) {
    for (const sort of SORTS) {
      for (const criteria of ['desc', 'asc'] as const) {
        for (const window of WINDOWS) {
          for (const filter of [{}, { ref: 'r0' }, { status: 'approved' }] as Array<{ ref?: string, status?: string }>) {
            const ids = expected(all, range, sort, criteria, window, filter)
            const base = `range=${range}&sort=${sort}&criteria=${criteria}&begin_date=${window[0]}&end_date=${window[1]}${filter.ref !== undefined ? `&external_reference=${filter.ref}` : ''}${filter.status !== undefined ? `&status=${filter.status}` : ''}`
            for (const [page, offset, limit] of [['', 0, 30], ['&limit=2&offset=1', 1, 2]] as const) {
              const got = await search(app, acc, base + page)
              const want = ids.slice(offset, offset + limit)
              const same = JSON.stringify(got.results.map(v => v.id)) === JSON.stringify(want) && got.paging.total === ids.length
              if (!same) t.same({ ids: got.results.map(v => v.id), total: got.paging.total }, { ids: want, total: ids.length }, `${label}: ${base}${page}`)
              checked++
            }
          }
        }
      }
    }
  }
  t.pass(`${label}: ${checked} searches answer what the dates say`)
}

/** More payments than a page, then a search by a date reads its page, or the payments within its range, only. */
async function readsItsPart (t: Test, app: FastifyInstance, acc: MpAccount, label: string): Promise<void> {
  for (let n = 0; n < 40; n++) {
    const p = (await mp(app, acc, 'POST', '/v1/payments', pix(`many-${n % 2}`))).json() as View
    if (n % 2 === 0) await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
    await advance(app, 60_000)
  }
  const all = (await search(app, acc, 'limit=50&begin_date=NOW-1DAYS')).paging.total
  t.ok(all >= 40, `${label}: the account holds ${all} payments of the last day`)
  for (const [query, most] of [
    ['range=date_last_updated&sort=date_last_updated&limit=5', 5],
    ['range=date_last_updated&sort=date_last_updated&criteria=asc&limit=5&offset=12', 5],
    ['range=date_approved&sort=money_release_date&criteria=asc&limit=5&offset=2', 5],
    ['range=money_release_date&sort=date_approved&begin_date=NOW-30MINUTES&limit=5', 5],
    // Sorted by another field, or filtered: the payments within the range (the last 3 minutes: 3 made, 2 paid), not the account's.
    ['range=date_last_updated&begin_date=NOW-3MINUTES', 3],
    ['range=date_approved&begin_date=NOW-3MINUTES&sort=id&criteria=asc', 3],
    // By creation, the list holds the instants in its records: its binary searches read a few more.
    ['range=date_created&begin_date=NOW-3MINUTES&sort=date_approved&status=approved', 3 + 2 * Math.ceil(Math.log2(all))],
  ] as const) {
    const { result, read } = await enumerations(app, ['transactions'], () => search(app, acc, query))
    t.ok(result.results.length > 0, `${label}: ${query} finds some`)
    t.ok(read.transactions.size <= most, `${label}: ${query} read ${read.transactions.size} payments, not the account's ${all}`)
  }
}

t.test('a search by the date of last update, approval or release answers what the payments\' dates say, and reads its page or its range only', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const other = await newAccount(app) as unknown as MpAccount
  await mp(app, other, 'POST', '/v1/payments', pix('r0'))
  await everyStatus(app, acc)
  await sameAsTheDates(t, app, acc, 'as made')
  // The dates themselves: the last update moves with each change of status, approval and release are the payment's.
  const all = (await search(app, acc, 'limit=50')).results
  t.same(new Set(all.map(v => v.status)), new Set(['approved', 'pending', 'refunded', 'cancelled', 'rejected']), 'payments in every status')
  t.ok(all.some(v => v.date_approved === null && v.status === 'rejected'), 'a refused payment has no approval')
  t.ok(all.some(v => v.status === 'refunded' && v.date_approved !== null), 'a refunded payment keeps its approval')
  t.ok(all.filter(v => v.status !== 'pending').every(v => v.date_last_updated > v.date_created), 'every payment that changed status was updated after it was made')
  t.equal(all.filter(v => v.status === 'pending' && v.date_last_updated > v.date_created).length, 1, 'a pending payment whose expiry moved was updated then')

  // A snapshot exported and imported: the lists are made again from the records.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await sameAsTheDates(t, app, acc, 'after an import')
  await readsItsPart(t, app, acc, 'after an import')
  t.equal((await search(app, other, 'range=date_last_updated&sort=date_last_updated')).paging.total, 1, 'another account\'s payments apart')

  // The account reset to its first state: no payment, then new ones listed by date again.
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  const fresh = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json() as MpAccount
  for (const range of RANGES) t.equal((await search(app, fresh, `range=${range}&sort=${range}`)).paging.total, 0, `after the reset, no payment by ${range}`)
  await readsItsPart(t, app, fresh, 'after a reset')
  await sameAsTheDates(t, app, fresh, 'after a reset')
  t.equal((await search(app, other, 'range=date_last_updated&sort=date_last_updated')).paging.total, 1, 'another account\'s payments untouched by the reset')
})

t.test('a payment rolled back by a failed unit keeps the dates it had', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 }) as unknown as MpAccount
  const first = (await mp(app, acc, 'POST', '/v1/payments', pix('x'))).json() as View
  await advance(app, HOUR)
  const second = (await mp(app, acc, 'POST', '/v1/payments', pix('x'))).json() as View
  await advance(app, HOUR)
  const byUpdate = 'range=date_last_updated&sort=date_last_updated'
  t.same((await search(app, acc, byUpdate)).results.map(v => v.id), [second.id, first.id], 'the last made is the last updated')
  const chargeOf = (p: View) => app.sandbox.store.transactionsOf(acc.accountId).find(tx => tx.kind === 'CASH_IN' && tx.data.mercadoPago?.paymentId === p.id)!
  const charge = chargeOf(first)
  // Paid inside a unit that then fails: the store puts everything back, and the lists with it.
  t.throws(() => app.sandbox.store.transact(() => {
    app.sandbox.chargePayments.payCharge(charge, { amountCents: charge.amountCents, payer: { name: 'PAGADOR', document: '52998224725', ispb: '60701190', bankName: 'BANCO' } })
    const range = { from: 0, to: Date.parse('2100-01-01') }
    t.equal(app.sandbox.charges.codeChargesBy(acc.accountId, 'paid', range, 0, 10, true).total, 1, 'paid inside the unit')
    t.same(app.sandbox.charges.codeChargesBy(acc.accountId, 'updated', range, 0, 10, true).charges.map(tx => tx.id), [charge.id, chargeOf(second).id], 'updated last inside the unit')
    throw new Error('the unit fails')
  }), /the unit fails/)
  t.equal((await search(app, acc, 'range=date_approved&sort=date_approved')).paging.total, 0, 'rolled back: not approved')
  t.same((await search(app, acc, byUpdate)).results.map(v => v.id), [second.id, first.id], 'rolled back: updated when it was made')
  t.same((await search(app, acc, `${byUpdate}&criteria=asc`)).results.map(v => v.id), [first.id, second.id])
})
