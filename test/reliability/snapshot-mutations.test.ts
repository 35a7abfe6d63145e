import t from 'tap'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import { StartupError } from '../../server/errors/startup.js'
import { bearer, buildTestApp, newAccount, tokenFor, type CreatedAccount } from '../helpers/app.js'
import { advance, aTxid, cashInBody, createCashIn, payCode, receiveIncoming } from '../helpers/payins.js'
import { BLOCKED_KEY, cashOut, cashOutBody } from '../helpers/payouts.js'

/**
 * A snapshot import is refused whole, or everything it brings can be read. A rich state (accounts,
 * cash-outs settled, failed and pending, charges paid and refunded, a cob, a devolução, a directory
 * transfer, MED, armed scenarios, webhook registrations and deliveries) is exported, then mutated one
 * way at a time from a fixed seed (a field deleted, set to null, to another type, to 2^53, to -1, to a
 * huge string, to a value of no enumeration) and imported. Either the import answers 400 and a
 * following export equals the one before, or it answers 200 and every read of the control plane, the
 * gateway and the dashboard answers without a 5xx.
 */
const RUNS = Number(process.env.SNAPSHOT_MUTATIONS ?? 400)
const SEED = Number(process.env.SNAPSHOT_MUTATIONS_SEED ?? 20260310)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Path = Array<string | number>

interface Built {
  accounts: CreatedAccount[]
  /** Ids the reads name, taken from the export (a mutation may break any of them). */
  transactions: string[]
  endToEndIds: string[]
  txids: string[]
  devolucoes: Array<{ e2eid: string, id: string }>
}

/** Every kind of record the sandbox keeps, made through the API the way an integration makes them. */
async function richState (app: FastifyInstance): Promise<Built> {
  const a = await newAccount(app, { balance: 1000, fee: 0.5, splitFrequency: 'IMMEDIATE' })
  const b = await newAccount(app, { balance: 0 })
  for (const eventType of ['cash_out', 'cash_in', 'refund_in', 'med_created']) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: a.accountId, eventType, url: 'http://127.0.0.1:9/hook', headers: [{ key: 'X-Key', value: 'k' }] } })
    if (res.statusCode !== 201) throw new Error(`webhook: ${res.body}`)
  }
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: b.accountId, scenario: 'SETTLEMENT_DELAY;ms=5000', endpoint: 'cash-out', times: 2 } })
  if (armed.statusCode !== 201) throw new Error(`arm: ${armed.body}`)

  const settled = (await cashOut(app, a.token, cashOutBody({ value: 10 }))).json().transactionId
  await cashOut(app, a.token, cashOutBody({ value: 5 }, { key: BLOCKED_KEY }))
  const dict = await app.inject({ method: 'POST', url: '/dict/pix', headers: { ...bearer(a.token), 'x-idempotency-key': '6f1c2a3b-0000-4000-8000-000000000001' }, payload: { pixKey: 'joao.souza@example.com', payment: { currency: 'BRL', amount: 3 } } })
  if (dict.statusCode !== 201) throw new Error(`dict: ${dict.body}`)

  const split = { pixKey: 'parceiro@example.com', pixKeyType: 'EMAIL', name: 'PARCEIRO', document: '11222333000181', type: 'FIXED', value: 10 }
  const charge = await createCashIn(app, a.token, cashInBody({ value: 100, splits: [split] }))
  const paid = (await payCode(app, charge.pixCode, { payer: { name: 'VITIMA', document: '52998224725', ispb: '60701190' } })).json()
  await app.inject({ method: 'POST', url: `/api/pix/refund-in/${charge.transactionId}`, headers: bearer(a.token), payload: { refundValue: 30, externalId: 'ref1' } })
  await createCashIn(app, a.token, cashInBody({ value: 7 }))

  const txid = aTxid(1)
  const cob = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(b.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: 'recebedor@example.com' } })
  if (cob.statusCode !== 201) throw new Error(`cob: ${cob.body}`)
  await payCode(app, cob.json().pixCopiaECola)
  const incoming = await receiveIncoming(app, b.accountId, 50)
  const devolucao = await app.inject({ method: 'PUT', url: `/pix/${incoming.endToEndId}/devolucao/dev1`, headers: bearer(b.token), payload: { valor: '20.00' } })
  if (devolucao.statusCode !== 201) throw new Error(`devolução: ${devolucao.body}`)
  await advance(app, 1000)

  await app.inject({ method: 'POST', url: `/__sandbox/transactions/${settled}/refund-received`, payload: { amount: 2, reason: 'conta encerrada' } })
  const med = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: paid.endToEndId, reason: 'REFUND_REQUEST', cause: 'SOCIAL_ENGINEERING', description: 'golpe' } })
  if (med.statusCode !== 201) throw new Error(`med: ${med.body}`)
  await app.inject({ method: 'POST', url: `/__sandbox/med/${med.json().id}/transition`, payload: { status: 'RECEIVED' } })
  await app.inject({ method: 'POST', url: `/__sandbox/med/${med.json().id}/transition`, payload: { status: 'ANALYZED', analysisResult: 'APPROVED' } })
  // Still pending at export: a cash-out the armed delay holds back.
  await cashOut(app, b.token, cashOutBody({ value: 1 }))
  await receiveIncoming(app, b.accountId, 5)
  await app.sandbox.webhooks.idle()

  const snapshot = await exported(app)
  const transactions = Object.values(snapshot.transactions) as Array<{ id: string, endToEndId?: string }>
  return {
    accounts: [a, b],
    transactions: transactions.map(tx => tx.id),
    endToEndIds: transactions.flatMap(tx => tx.endToEndId ? [tx.endToEndId] : []),
    txids: [txid],
    devolucoes: [{ e2eid: incoming.endToEndId, id: 'dev1' }],
  }
}

async function exported (app: FastifyInstance): Promise<any> {
  const res = await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })
  if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** Every path of a document that a mutation can aim at, grouped by record (a group is one record, or one top-level field). */
function groupsOf (doc: { [key: string]: Json }): Path[][] {
  const groups: Path[][] = []
  const walk = (value: Json, path: Path, into: Path[]): void => {
    into.push(path)
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], into))
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k], into)
  }
  for (const [key, value] of Object.entries(doc)) {
    const isCollection = value !== null && typeof value === 'object' && !Array.isArray(value) && key !== 'clock' && key !== 'seq'
    if (!isCollection) {
      const group: Path[] = []
      walk(value, [key], group)
      groups.push(group)
      continue
    }
    for (const [id, record] of Object.entries(value)) {
      const group: Path[] = []
      walk(record, [key, id], group)
      groups.push(group)
    }
  }
  return groups
}

const MUTATIONS = ['delete', 'null', 'wrong type', '2^53', '-1', 'huge string', 'unknown enum value', 'fraction', 'empty'] as const
type Mutation = typeof MUTATIONS[number]

function replacement (mutation: Exclude<Mutation, 'delete'>, original: Json): Json {
  switch (mutation) {
    case 'null': return null
    case '2^53': return 2 ** 53
    case '-1': return -1
    case 'huge string': return 'x'.repeat(200_000)
    case 'unknown enum value': return 'NOT_A_VALUE'
    case 'fraction': return 0.5
    case 'empty': return Array.isArray(original) ? [] : typeof original === 'object' && original !== null ? {} : ''
    case 'wrong type':
      if (typeof original === 'string') return 1
      if (typeof original === 'number') return String(original)
      if (typeof original === 'boolean') return 'true'
      if (Array.isArray(original)) return {}
      return []
  }
}

function mutate (doc: Json, path: Path, mutation: Mutation): Json {
  const copy = structuredClone(doc) as { [key: string]: Json }
  let parent: any = copy
  for (const key of path.slice(0, -1)) parent = parent[key]
  const last = path[path.length - 1]
  if (mutation === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1)
    else delete parent[last]
  } else {
    parent[last] = replacement(mutation, parent[last])
  }
  return copy
}

/** Every read a client, an integration or the dashboard makes: the answers that are 5xx. */
async function readFailures (app: FastifyInstance, built: Built): Promise<string[]> {
  const urls = [
    '/__sandbox/health', '/__sandbox/clock', '/__sandbox/snapshot', '/__sandbox/accounts', '/__sandbox/transactions', '/__sandbox/transactions?limit=200',
    '/__sandbox/webhooks', '/__sandbox/webhooks/deliveries', '/__sandbox/requests', '/__sandbox/report', '/__sandbox/med', '/__sandbox/directory',
    '/__sandbox/scenarios', '/__sandbox/scenarios/armed',
  ]
  const snapshot = await exported(app).catch(() => ({ accounts: {}, deliveries: {}, meds: {}, directory: {} }))
  const ids = (collection: string): string[] => Object.keys(snapshot[collection] ?? {})
  for (const id of ids('accounts')) {
    urls.push(`/__sandbox/accounts/${id}`, `/__sandbox/transactions?accountId=${id}&limit=200`, `/__sandbox/webhooks?accountId=${id}`,
      `/__sandbox/webhooks/deliveries?accountId=${id}`, `/__sandbox/requests?accountId=${id}`, `/__sandbox/report?accountId=${id}`,
      `/__sandbox/med?accountId=${id}`, `/__sandbox/scenarios/armed?accountId=${id}`)
  }
  for (const id of built.transactions) urls.push(`/__sandbox/transactions/${id}`, `/__sandbox/webhooks/deliveries?transactionId=${id}`)
  for (const id of ids('deliveries')) urls.push(`/__sandbox/webhooks/deliveries/${id}`)
  for (const id of ids('meds')) urls.push(`/__sandbox/med/${id}`)
  for (const key of ids('directory').slice(0, 5)) urls.push(`/__sandbox/directory/${encodeURIComponent(key)}`)
  const failures: string[] = []
  const check = async (url: string, headers: Record<string, string> = {}): Promise<void> => {
    const res = await app.inject({ method: 'GET', url, headers })
    if (res.statusCode >= 500) failures.push(`GET ${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`)
  }
  for (const url of urls) await check(url)

  const day = { inicio: '2026-03-01T00:00:00Z', fim: '2026-03-31T00:00:00Z' }
  // The fixture account's credentials, then those of the accounts the state was built with.
  for (const creds of [undefined, ...built.accounts]) {
    let token: string
    try {
      token = await tokenFor(app, creds)
    } catch (err) {
      if (/token failed: 5/.test((err as Error).message)) failures.push(`POST /api/auth/token: ${(err as Error).message.slice(0, 200)}`)
      continue
    }
    const gateway = ['/balance', '/api/balance', '/api/med', '/api/webhooks', '/accounts/balances', `/cob?inicio=${day.inicio}&fim=${day.fim}`,
      `/pix?inicio=${day.inicio}&fim=${day.fim}`, ...built.txids.map(txid => `/cob/${txid}`), ...built.endToEndIds.map(e2e => `/pix/${e2e}`),
      ...built.devolucoes.map(d => `/pix/${d.e2eid}/devolucao/${d.id}`)]
    for (const url of gateway) await check(url, bearer(token))
  }
  return failures
}

t.test(`${RUNS} mutated snapshots: each is refused whole, or every read answers without a 5xx`, async t => {
  const app = await buildTestApp(t)
  const built = await richState(app)
  const baseline = await exported(app)
  const groups = groupsOf(baseline)
  const made = new Set(Object.values(baseline.transactions).map((tx: any) => `${tx.kind} ${tx.status}`))
  for (const kind of ['CASH_OUT CONFIRMED', 'CASH_OUT ERROR', 'CASH_OUT PENDING', 'DICT_TRANSFER COMPLETED', 'SPLIT CONFIRMED', 'CASH_IN CONFIRMED', 'CASH_IN PENDING',
    'REFUND_IN CONFIRMED', 'COB CONCLUIDA', 'PIX_IN CONFIRMED', 'DEVOLUCAO DEVOLVIDO', 'REFUND_RECEIVED CONFIRMED']) t.ok(made.has(kind), kind)
  t.ok(Object.values(baseline.deliveries).some((d: any) => d.attempts.length > 0), 'deliveries with attempts')
  t.ok(Object.keys(baseline.meds).length > 0 && Object.keys(baseline.armedScenarios).length > 0, 'a MED and an armed scenario')

  const cases = fc.sample(fc.record({ group: fc.nat(), path: fc.nat(), mutation: fc.constantFrom(...MUTATIONS) }), { seed: SEED, numRuns: RUNS })
  const problems: string[] = []
  let refused = 0
  for (const c of cases) {
    const group = groups[c.group % groups.length]
    const path = group[c.path % group.length]
    const what = `${c.mutation} at ${path.join('/')}`
    const before = await exported(app)
    const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: mutate(baseline, path, c.mutation) as object })
    if (res.statusCode === 400) {
      refused++
      const after = await exported(app)
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${what}: refused, yet the state changed`)
      continue
    }
    if (res.statusCode !== 200) {
      problems.push(`${what}: the import answered ${res.statusCode} ${res.body.slice(0, 200)}`)
      continue
    }
    for (const failure of await readFailures(app, built)) problems.push(`${what}: ${failure}`)
    const back = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: baseline })
    if (back.statusCode !== 200) throw new Error(`the baseline no longer imports: ${back.body}`)
    await app.sandbox.webhooks.idle()
  }
  t.comment(`${cases.length} mutations: ${refused} refused, ${cases.length - refused} imported`)
  t.same(problems, [], 'no mutation is imported into a state that a read cannot answer')
})

t.test('a delivery without its body, a limit of 2^53 cents: a snapshot is refused with a 400, a data file stops the start', async t => {
  const app = await buildTestApp(t)
  await richState(app)
  const baseline = await exported(app)
  const [deliveryId] = Object.keys(baseline.deliveries)
  const cases: Array<[string, (doc: any) => void, string]> = [
    ['a delivery without body', doc => { delete doc.deliveries[deliveryId].body }, `deliveries/${deliveryId}/body`],
    ['limits.dailyCents of 2^53', doc => { doc.accounts['2'].limits.dailyCents = 2 ** 53 }, 'accounts/2/limits/dailyCents'],
  ]
  const dir = mkdtempSync(join(tmpdir(), 'pix-mutated-data-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  for (const [what, breakIt, field] of cases) {
    const doc = structuredClone(baseline)
    breakIt(doc)
    const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: doc })
    t.equal(res.statusCode, 400, what)
    t.ok(res.json().details.problems[0].startsWith(`${field}: `), `${what}: the problem is named: ${res.json().details.problems[0]}`)
    t.same(await exported(app), baseline, `${what}: nothing was imported`)

    const file = join(dir, 'state.json')
    writeFileSync(file, JSON.stringify(doc))
    const error = await buildApp({ config: { data: file, seed: 'mutated-data', clock: 'frozen' } }).then(async started => { await started.close() }, (err: unknown) => err)
    t.type(error, StartupError, `${what}: a data file holding it stops the start`)
    t.equal((error as StartupError).exitCode, 2)
    t.notMatch((error as Error).message, /\n/, 'in one line')
    t.match((error as Error).message, `--data ${file} is a pix-sandbox state with problems: ${field}: `)
    t.same(JSON.parse(readFileSync(file, 'utf8')), doc, 'the file is left as it was')
  }
})
