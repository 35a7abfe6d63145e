import t, { type Test } from 'tap'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, certHeader, newAccount, type CreatedAccount } from '../helpers/app.js'
import { cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { cashOutBody, CPF_MARIA } from '../helpers/payouts.js'
import { shapeProblem } from '../helpers/reliability.js'
import { authArb, bodyArb, headerValue, oddHeaders, oddSegment, queryArb, unicode, type Payload } from '../helpers/fuzz-inputs.js'

/**
 * Bad input, property-based (docs/reliability.md): for every public endpoint, NUM_RUNS generated requests (bodies
 * from fc.anything and from mutations of a valid body: wrong types, missing and extra fields, huge and
 * unicode strings, 1e308, -0, NaN-like strings, `__proto__` and `constructor` keys, deep nesting, arrays
 * instead of objects; malformed JSON; wrong content types; odd headers, query strings and path params)
 * go through app.inject with a valid token. Every answer is the documented 2xx (the generated input
 * happened to be valid: the ledger baseline moves with it) or a 4xx in the family's error shape, never
 * a 5xx, and after a 4xx the ledger (balances, totals and transaction count of every account, from
 * GET /__sandbox/snapshot) is exactly as before.
 */
const NUM_RUNS = 500
const SEED = 20260307

interface Req { path: string, query: string, payload: Payload, headers: Record<string, string>, auth: string | null }

// ---- the property ---------------------------------------------------------------------------------

interface Ledger { [accountId: string]: string }

const ledgerEntry = (a: { balance: unknown, totals: unknown }, transactions: number): string => JSON.stringify({ balance: a.balance, totals: a.totals, transactions })

/** Balances, totals and transaction count of every account, as GET /__sandbox/snapshot exports them. */
async function snapshotLedger (app: FastifyInstance): Promise<Ledger> {
  const snap = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const counts: Record<string, number> = {}
  for (const tx of Object.values(snap.transactions) as Array<{ accountId: number }>) counts[tx.accountId] = (counts[tx.accountId] ?? 0) + 1
  const out: Ledger = {}
  for (const [id, a] of Object.entries(snap.accounts) as Array<[string, any]>) out[id] = ledgerEntry(a, counts[id] ?? 0)
  return out
}

/**
 * The same figures read from the store the snapshot is exported from, without the export: cheap enough
 * for every generated request. Each endpoint's run starts and ends by checking it equals the snapshot's.
 */
function ledger (app: FastifyInstance): Ledger {
  const store = app.sandbox.store
  const out: Ledger = {}
  for (const a of store.accounts()) out[String(a.id)] = ledgerEntry(a, store.transactionsOf(a.id).length)
  return out
}

function ledgerDiff (before: Ledger, after: Ledger, allowCountChange = false): string | null {
  for (const id of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[id] === after[id]) continue
    if (allowCountChange && before[id] && after[id]) {
      const b = JSON.parse(before[id])
      const a = JSON.parse(after[id])
      if (JSON.stringify([b.balance, b.totals]) === JSON.stringify([a.balance, a.totals])) continue
    }
    return `account ${id}: ${before[id]} -> ${after[id]}`
  }
  return null
}

interface Endpoint {
  name: string
  method: 'GET' | 'POST' | 'PUT'
  family: 'extended' | 'simple'
  success: number
  path: fc.Arbitrary<string>
  body?: fc.Arbitrary<Payload>
  /** Headers this endpoint needs (a generated value may still be wrong). */
  headers?: fc.Arbitrary<Record<string, string>>
  query?: fc.Arbitrary<string>
  auth: boolean
  /** 4xx answers that record a final ERROR transaction by design (docs/gateway.md §3.1, 7.3): balances must not move. */
  recordsOnRefusal?: (status: number) => boolean
}

async function check (t: Test, app: FastifyInstance, token: string, ep: Endpoint): Promise<void> {
  t.same(ledger(app), await snapshotLedger(app), 'the store and GET /__sandbox/snapshot agree before the run')
  let baseline = ledger(app)
  const stats = { ok: 0, clientError: 0, byStatus: {} as Record<number, number> }
  const arb = fc.record({
    path: ep.path,
    query: ep.query ?? queryArb,
    payload: ep.body ?? fc.constant<Payload>({}),
    headers: fc.tuple(ep.headers ?? fc.constant({}), oddHeaders).map(([a, b]) => ({ ...a, ...b })),
    auth: ep.auth ? authArb(token) : fc.constant(null),
  })
  let failure = ''
  const property = fc.asyncProperty(arb, async (req: Req) => {
    failure = ''
    const headers: Record<string, string> = { ...req.headers }
    if (req.auth !== null) headers.authorization = req.auth
    if (req.payload.contentType !== undefined) headers['content-type'] = req.payload.contentType
    else delete headers['content-type']
    const res = await app.inject({ method: ep.method, url: req.path + req.query, headers, payload: req.payload.text })
    failure = `${ep.method} ${(req.path + req.query).slice(0, 200)} headers=${JSON.stringify(headers).slice(0, 300)} body=${String(req.payload.text).slice(0, 300)} -> ${res.statusCode}`
    stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1
    if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`)
    const after = ledger(app)
    if (res.statusCode >= 200 && res.statusCode < 300) {
      if (res.statusCode !== ep.success) throw new Error(`2xx ${res.statusCode} instead of the documented ${ep.success}: ${res.body.slice(0, 200)}`)
      stats.ok++
      baseline = after
      return
    }
    if (res.statusCode < 400) throw new Error(`unexpected ${res.statusCode}`)
    stats.clientError++
    const problem = shapeProblem(ep.family, res.statusCode, res.body)
    if (problem) throw new Error(`${res.statusCode}: ${problem}`)
    const diff = ledgerDiff(baseline, after, ep.recordsOnRefusal?.(res.statusCode) ?? false)
    if (diff) throw new Error(`the ledger changed on a ${res.statusCode}: ${diff} (${res.body.slice(0, 200)})`)
    baseline = after
  })
  try {
    await fc.assert(property, { numRuns: NUM_RUNS, seed: SEED, endOnFailure: true })
    t.pass(`${NUM_RUNS} generated requests: ${stats.ok} valid (${ep.success}), ${stats.clientError} refused; statuses ${JSON.stringify(stats.byStatus)}`)
  } catch (err) {
    const message = String((err as Error).message)
    const got = message.indexOf('Got error')
    t.fail(`${failure}\n${got >= 0 ? message.slice(got, got + 1500) : message.slice(0, 1500)}`)
  }
  t.same(await snapshotLedger(app), baseline, 'GET /__sandbox/snapshot shows the ledger as the last accepted request left it')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is not polluted')
}

// ---- the endpoints --------------------------------------------------------------------------------

const uuidV4 = fc.uuid({ version: 4 })
const idempotencyHeader = fc.oneof(
  { weight: 4, arbitrary: uuidV4.map(k => ({ 'x-idempotency-key': k })) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: headerValue.map(k => ({ 'x-idempotency-key': k })) }
)

interface World {
  app: FastifyInstance
  a: CreatedAccount
  /** A paid cash-in of A (refund-in target) and the endToEndId of a PIX A received (devolução target). */
  paidId: string
  e2eid: string
  txid: string
  /** A QR code of a charge of account B, payable by A. */
  otherQr: string
  otherQrValue: number
}

async function world (t: Test): Promise<World> {
  const app = await buildTestApp(t, { medRateLimit: 100_000 })
  const a = await newAccount(app, { balance: 1_000_000 })
  const b = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, a.token, cashInBody({ value: 100_000 }))
  const paid = (await payCode(app, charge.pixCode)).json()
  const txid = 'badinputtxid0000000000000001'
  const cob = await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(a.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })
  if (cob.statusCode !== 201) throw new Error(cob.body)
  const other = await createCashIn(app, b.token, cashInBody({ value: 3 }))
  return { app, a, paidId: paid.transactionId, e2eid: paid.endToEndId, txid, otherQr: other.pixCode, otherQrValue: 3 }
}

const uniq = (p: string) => `${p}-${Math.random().toString(36).slice(2, 10)}`

t.test('bad input on every public endpoint', async t => {
  const w = await world(t)
  const { app, a } = w
  const fixed = (p: string) => fc.constant(p)
  const segment = (real: string) => fc.oneof({ weight: 2, arbitrary: fc.constant(real) }, { weight: 3, arbitrary: oddSegment })

  const endpoints: Endpoint[] = [
    {
      name: 'POST /api/auth/token',
      method: 'POST',
      family: 'simple',
      success: 201,
      auth: false,
      path: fixed('/api/auth/token'),
      body: bodyArb(() => ({ clientId: a.clientId, clientSecret: a.clientSecret })),
      headers: fc.oneof(
        { weight: 4, arbitrary: fc.constant({ 'x-ssl-client-cert': certHeader(a.certificate) }) },
        { weight: 1, arbitrary: fc.constant({}) },
        { weight: 2, arbitrary: fc.oneof(headerValue, fc.constantFrom(a.certificate.replace(/\n/g, ' '), encodeURIComponent(a.certificate).replace(/%20/g, '+'), certHeader(a.certificate).slice(0, 200), certHeader('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'))).map(v => ({ 'x-ssl-client-cert': v })) }
      ),
    },
    { name: 'GET /balance', method: 'GET', family: 'extended', success: 200, auth: true, path: fixed('/balance') },
    { name: 'GET /accounts/balances', method: 'GET', family: 'simple', success: 200, auth: true, path: fixed('/accounts/balances') },
    {
      name: 'POST /api/pix/cash-out',
      method: 'POST',
      family: 'extended',
      success: 201,
      auth: true,
      path: fixed('/api/pix/cash-out'),
      body: bodyArb(() => cashOutBody({ value: 0.01, externalId: uniq('co') })),
    },
    {
      name: 'POST /api/pix/cash-out-qrcode',
      method: 'POST',
      family: 'extended',
      success: 201,
      auth: true,
      path: fixed('/api/pix/cash-out-qrcode'),
      body: bodyArb(() => ({ value: w.otherQrValue, qrCode: w.otherQr, externalId: uniq('qr') })),
      recordsOnRefusal: status => status === 422,
    },
    {
      name: 'POST /dict/pix',
      method: 'POST',
      family: 'simple',
      success: 201,
      auth: true,
      path: fixed('/dict/pix'),
      headers: idempotencyHeader,
      body: bodyArb(() => ({ pixKey: CPF_MARIA, payment: { currency: 'BRL', amount: 0.01 } })),
    },
    {
      name: 'POST /api/pix/cash-in',
      method: 'POST',
      family: 'extended',
      success: 201,
      auth: true,
      path: fixed('/api/pix/cash-in'),
      body: bodyArb(() => cashInBody({ value: 1, externalId: uniq('ci') })),
    },
    {
      name: 'POST /api/pix/refund-in/:id',
      method: 'POST',
      family: 'extended',
      success: 201,
      auth: true,
      path: segment(w.paidId).map(id => `/api/pix/refund-in/${id}`),
      body: bodyArb(() => ({ refundValue: 0.01, reason: 'teste' })),
    },
    {
      name: 'PUT /cob/:txid',
      method: 'PUT',
      family: 'simple',
      success: 201,
      auth: true,
      path: fc.oneof(segment(w.txid), fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/)).map(id => `/cob/${id}`),
      body: bodyArb(() => ({ calendario: { expiracao: 3600 }, devedor: { cpf: '52998224725', nome: 'Maria' }, valor: { original: '1.00' }, chave: 'loja@example.com', solicitacaoPagador: 'pedido', infoAdicionais: [{ nome: 'a', valor: 'b' }] })),
    },
    {
      name: 'GET /cob/:txid',
      method: 'GET',
      family: 'simple',
      success: 200,
      auth: true,
      path: fc.oneof(segment(w.txid), fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/)).map(id => `/cob/${id}`),
    },
    {
      name: 'PUT /pix/:e2eid/devolucao/:id',
      method: 'PUT',
      family: 'simple',
      success: 201,
      auth: true,
      path: fc.tuple(segment(w.e2eid), fc.oneof(fc.stringMatching(/^[a-zA-Z0-9]{1,35}$/), oddSegment)).map(([e, id]) => `/pix/${e}/devolucao/${id}`),
      body: bodyArb(() => ({ valor: '0.01', natureza: 'ORIGINAL', descricao: 'devolução' })),
    },
    {
      name: 'GET /api/med',
      method: 'GET',
      family: 'extended',
      success: 200,
      auth: true,
      path: fixed('/api/med'),
      query: fc.oneof(
        queryArb,
        fc.record({
          status: fc.oneof(fc.constantFrom('OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED', 'open', ''), unicode),
          isReconciled: fc.constantFrom('true', 'false', '1', '0', 'maybe', ''),
          startDate: fc.oneof(fc.constantFrom('2026-03-10', '2026-02-30', '2026-03-10T25:00:00Z', 'yesterday', '', '0', '99999-01-01'), unicode),
          endDate: fc.constantFrom('2026-03-11', '2026-13-01', 'x', '1e308'),
          page: fc.oneof(fc.constantFrom('1', '0', '-1', '1e308', 'NaN', '-0', '1.5', '', '9007199254740993'), fc.integer().map(String)),
          pageSize: fc.oneof(fc.constantFrom('1', '100', '101', '0', 'abc', '-0', '20.0'), fc.integer().map(String)),
        }, { requiredKeys: [] }).map(q => '?' + new URLSearchParams(q as Record<string, string>).toString())
      ),
    },
  ]

  for (const ep of endpoints) {
    await t.test(ep.name, async t => { await check(t, app, a.token, ep) })
  }
})

t.test('bad input on POST/GET /api/webhooks, disabled (the default) and enabled', async t => {
  for (const mode of ['disabled', 'enabled'] as const) {
    const app = await buildTestApp(t, { publicWebhooks: mode })
    const a = await newAccount(app, { balance: 10 })
    const body = bodyArb(() => ({ url: 'https://example.com/hook', eventType: 'cash_in', headers: [{ key: 'X-Api-Key', value: 'k' }] }))
    await t.test(`POST /api/webhooks (${mode})`, async t => {
      await check(t, app, a.token, { name: 'POST /api/webhooks', method: 'POST', family: 'extended', success: 200, auth: true, path: fc.constant('/api/webhooks'), body })
    })
    await t.test(`GET /api/webhooks (${mode})`, async t => {
      await check(t, app, a.token, { name: 'GET /api/webhooks', method: 'GET', family: 'extended', success: 200, auth: true, path: fc.constant('/api/webhooks') })
    })
  }
})
