import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { enumerations } from '../helpers/enumerations.js'
import { receiveIncoming } from '../helpers/payins.js'

/**
 * The lists of MED disputes read what they answer, not every dispute of the account
 * (server/services/med.ts): the gateway's GET /api/med a page of the lists of the statuses and
 * reconciliations its filters cover, Efí's GET /v2/gn/infracoes the disputes opened within its
 * window, and Efí's balance with `bloqueios=true` the disputes still pending. Each answer is checked
 * against the disputes as the control plane lists them, through every transition, after a snapshot
 * import that changes their reconciliation, after a rollback and after an account's reset.
 */

interface Med { id: number, status: string, isReconciled: boolean, createdAt: string, originalTransaction: { amount: number } | null }
type App = FastifyInstance
const HOUR = 3_600_000
const STATUSES = [undefined, 'OPEN', 'RECEIVED', 'ANALYZED', 'CANCELLED'] as const
const WINDOWS = [[undefined, undefined], ['2026-03-11T00:00:00Z', '2026-03-13T12:00:00Z'], [undefined, '2026-03-12T03:00:00Z']] as const

const openMed = async (app: App, endToEndId: string): Promise<Med> => {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId, reason: 'REFUND_REQUEST', cause: 'SCAM' } })
  if (res.statusCode !== 201) throw new Error(res.body)
  return res.json()
}
const move = async (app: App, id: number, payload: Record<string, unknown>) => {
  const res = await app.inject({ method: 'POST', url: `/__sandbox/med/${id}/transition`, payload })
  if (res.statusCode !== 200) throw new Error(res.body)
}
const disputes = async (app: App, accountId: number): Promise<Med[]> => (await app.inject({ method: 'GET', url: `/__sandbox/med?accountId=${accountId}` })).json().meds

/** 24 disputes six hours apart (every fifth in the same instant as the one before), moved to every status. */
async function everyStatus (app: App, accountId: number): Promise<void> {
  for (let i = 0; i < 24; i++) {
    const p = await receiveIncoming(app, accountId, 1 + i)
    const m = await openMed(app, p.endToEndId)
    if (i % 6 === 1) await move(app, m.id, { status: 'RECEIVED' })
    if (i % 6 === 2 || i % 6 === 3) {
      await move(app, m.id, { status: 'RECEIVED' })
      await move(app, m.id, { status: 'ANALYZED', analysisResult: i % 6 === 2 ? 'APPROVED' : 'REJECTED' })
    }
    if (i % 6 === 4) await move(app, m.id, { status: 'CANCELLED' })
    if (i % 5 !== 3) await advance(app, 6 * HOUR)
  }
}

/** Every status, reconciliation, window and page of GET /api/med: what the disputes say, newest first (by creation, then id). */
async function sameAsTheDisputes (t: Test, app: App, token: string, accountId: number, label: string): Promise<void> {
  const all = await disputes(app, accountId)
  let checked = 0
  for (const status of STATUSES) {
    for (const reconciled of [undefined, true, false]) {
      for (const [from, to] of WINDOWS) {
        const ids = all
          .filter(m => (status === undefined || m.status === status) && (reconciled === undefined || m.isReconciled === reconciled))
          .filter(m => (from === undefined || Date.parse(m.createdAt) >= Date.parse(from)) && (to === undefined || Date.parse(m.createdAt) <= Date.parse(to)))
          .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id)
          .map(m => m.id)
        const query = [status && `status=${status}`, reconciled !== undefined && `isReconciled=${reconciled}`, from && `startDate=${from}`, to && `endDate=${to}`].filter(Boolean).join('&')
        for (const [page, pageSize] of [[1, 20], [2, 3], [9, 5]] as const) {
          const res = await app.inject({ method: 'GET', url: `/api/med?${query}&page=${page}&pageSize=${pageSize}`, headers: bearer(token) })
          const got = res.json() as { data: Array<{ id: number }>, metadata: unknown }
          const want = { ids: ids.slice((page - 1) * pageSize, page * pageSize), metadata: { total: ids.length, page, pageSize, totalPages: Math.ceil(ids.length / pageSize) } }
          const same = res.statusCode === 200 && JSON.stringify({ ids: got.data.map(m => m.id), metadata: got.metadata }) === JSON.stringify(want)
          if (!same) t.same({ status: res.statusCode, ids: got.data?.map(m => m.id), metadata: got.metadata }, { status: 200, ...want }, `${label}: ${query} page ${page} of ${pageSize}`)
          checked++
        }
      }
    }
  }
  t.pass(`${label}: ${checked} lists answer what the disputes say`)
}

/** Efí's infrações of a window and its blocked balance: what the disputes say. */
async function efiSameAsTheDisputes (t: Test, app: App, efiToken: string, accountId: number, label: string): Promise<void> {
  const all = await disputes(app, accountId)
  for (const [inicio, fim] of [['2026-03-10T00:00:00Z', '2026-03-20T00:00:00Z'], ['2026-03-11T00:00:00Z', '2026-03-13T12:00:00Z']]) {
    const res = await app.inject({ method: 'GET', url: `/v2/gn/infracoes?inicio=${inicio}&fim=${fim}`, headers: bearer(efiToken) })
    t.equal(res.statusCode, 200, res.body)
    const ids = all.filter(m => Date.parse(m.createdAt) >= Date.parse(inicio) && Date.parse(m.createdAt) <= Date.parse(fim)).map(m => m.id).sort((a, b) => a - b)
    t.same(res.json().infracoes.map((i: { protocolo: number }) => i.protocolo), ids, `${label}: infrações from ${inicio} to ${fim}, oldest first`)
  }
  const pendingCents = all.filter(m => m.status === 'OPEN' || m.status === 'RECEIVED').reduce((sum, m) => sum + Math.round((m.originalTransaction?.amount ?? 0) * 100), 0)
  const saldo = await app.inject({ method: 'GET', url: '/v2/gn/saldo?bloqueios=true', headers: bearer(efiToken) })
  t.equal(saldo.json().bloqueios.med, (pendingCents / 100).toFixed(2), `${label}: the balance blocked by the disputes still pending`)
}

/** More disputes than a page, then each list reads its page, its window or the pending ones only. */
async function readsItsPart (t: Test, app: App, tokens: () => Promise<{ gateway: string, efi: string }>, accountId: number, label: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const p = await receiveIncoming(app, accountId, 1)
    const m = await openMed(app, p.endToEndId)
    if (i % 4 !== 0) await move(app, m.id, { status: 'CANCELLED' })
    await advance(app, 60_000)
  }
  const all = (await disputes(app, accountId)).length
  t.ok(all >= 40, `${label}: the account has ${all} disputes`)
  const pending = (await disputes(app, accountId)).filter(m => m.status === 'OPEN' || m.status === 'RECEIVED').length
  const { gateway: token, efi: efiToken } = await tokens()
  for (const [url, most, headers] of [
    ['/api/med?pageSize=5', 5, bearer(token)],
    ['/api/med?status=CANCELLED&pageSize=5&page=3', 5, bearer(token)],
    ['/api/med?isReconciled=true&status=OPEN&pageSize=4', 4, bearer(token)],
    // The last 3 minutes of sandbox time: 3 disputes opened; the list of those opened keeps their instants in its records, so its binary searches read a few more.
    [`/v2/gn/infracoes?inicio=${new Date(app.sandbox.clock.now() - 180_000).toISOString()}&fim=${new Date(app.sandbox.clock.now()).toISOString()}`, 3 + 2 * Math.ceil(Math.log2(all)), bearer(efiToken)],
    ['/v2/gn/saldo?bloqueios=true', pending, bearer(efiToken)],
  ] as const) {
    const { result, read } = await enumerations(app, ['meds'], () => app.inject({ method: 'GET', url, headers }))
    t.equal(result.statusCode, 200, `${label}: ${url}`)
    t.ok(read.meds.size <= most, `${label}: ${url} read ${read.meds.size} disputes, not the account's ${all}`)
  }
}

t.test('the lists of MED disputes answer what the disputes say and read their page, window or pending ones only', async t => {
  const app = await buildTestApp(t, { medRateLimit: 100_000 })
  const acc = await newAccount(app, { document: '11222333000181', name: 'LOJA', balance: 0 })
  const other = await newAccount(app, { balance: 0 })
  await openMed(app, (await receiveIncoming(app, other.accountId, 5)).endToEndId)
  // Tokens are taken before each check: the disputes are made over days of sandbox time.
  const tokens = async () => ({ gateway: await tokenFor(app, acc), efi: await oauthToken(app, acc) })
  await everyStatus(app, acc.accountId)
  t.same(new Set((await disputes(app, acc.accountId)).map(m => m.status)), new Set(['OPEN', 'RECEIVED', 'ANALYZED', 'CANCELLED']), 'disputes in every status')
  let tk = await tokens()
  await sameAsTheDisputes(t, app, tk.gateway, acc.accountId, 'as made')
  await efiSameAsTheDisputes(t, app, tk.efi, acc.accountId, 'as made')

  // A snapshot whose every third dispute is not reconciled, imported: the lists are made again from the records.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  for (const m of Object.values(snapshot.meds as Record<string, Med & { accountId: number }>)) if (m.accountId === acc.accountId && m.id % 3 === 0) m.isReconciled = false
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.ok((await disputes(app, acc.accountId)).some(m => !m.isReconciled), 'some disputes not reconciled')
  tk = await tokens()
  await sameAsTheDisputes(t, app, tk.gateway, acc.accountId, 'after an import')
  await efiSameAsTheDisputes(t, app, tk.efi, acc.accountId, 'after an import')
  await readsItsPart(t, app, tokens, acc.accountId, 'after an import')
  tk = await tokens()
  await sameAsTheDisputes(t, app, tk.gateway, acc.accountId, 'after more')

  // The account reset: no dispute, then new ones listed again; the other account's untouched.
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  tk = await tokens()
  t.equal((await app.inject({ method: 'GET', url: '/api/med', headers: bearer(tk.gateway) })).json().metadata.total, 0, 'after the reset, no dispute')
  await readsItsPart(t, app, tokens, acc.accountId, 'after a reset')
  tk = await tokens()
  await sameAsTheDisputes(t, app, tk.gateway, acc.accountId, 'after a reset')
  await efiSameAsTheDisputes(t, app, tk.efi, acc.accountId, 'after a reset')
  t.equal((await app.inject({ method: 'GET', url: '/api/med', headers: bearer(await tokenFor(app, other)) })).json().metadata.total, 1, 'another account\'s dispute untouched')
})

t.test('a move rolled back by a failed unit leaves the dispute in the list of its status', async t => {
  const app = await buildTestApp(t, { medRateLimit: 100_000 })
  const acc = await newAccount(app, { balance: 0 })
  const token = await tokenFor(app, acc)
  const m = await openMed(app, (await receiveIncoming(app, acc.accountId, 10)).endToEndId)
  const ids = async (status: string) => (await app.inject({ method: 'GET', url: `/api/med?status=${status}`, headers: bearer(token) })).json().data.map((d: { id: number }) => d.id)
  t.throws(() => app.sandbox.store.transact(() => {
    app.sandbox.med.transition(m.id, { status: 'CANCELLED' }, () => [])
    t.same(app.sandbox.med.list(acc.accountId, { status: 'CANCELLED' }).data.map(d => d.id), [m.id], 'cancelled inside the unit')
    throw new Error('the unit fails')
  }), /the unit fails/)
  t.same(await ids('OPEN'), [m.id], 'rolled back: open')
  t.same(await ids('CANCELLED'), [], 'rolled back: not cancelled')
  t.equal(app.sandbox.med.pendingOf(acc.accountId).length, 1, 'still pending')
})
