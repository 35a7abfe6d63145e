import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { errorShapeOf } from './errors.js'
import { JWKS_PATH, PAYLOAD_PATH } from '../../server/domain/payload-locations.js'
import { OAUTH_TOKEN_PATH } from '../../server/domain/scopes.js'
import { catalogue } from '../../scenarios/resolver.js'
import { authArb, bodyArb, headerValue, oddHeaders, oddSegment, queryArb, unicode, weird, type Json, type Payload } from './fuzz-inputs.js'
import { ledgerProblems, shapeProblem, SHAPE_OF } from './reliability.js'

/**
 * A fuzz run over the gateway, BACEN's API Pix (under its base path, with a token of /oauth/token or
 * the gateway's) and the control plane (docs/reliability.md): `requests` generated requests, from a
 * fixed seed, through app.inject against one sandbox that lives through the whole run. Each request is
 * an endpoint of either family with a valid-ish body (a valid template, mostly mutated: wrong types,
 * missing and extra fields, unicode, huge numbers and strings, `__proto__` keys), or malformed JSON,
 * an odd content type, odd headers (scenarios among them), query strings and path segments; path
 * segments and bodies draw on the ids earlier answers returned, mostly the calling account's own, so
 * the run goes deep (settle, fail, refund, MED, redeliver) rather than bouncing off 404s. Checked:
 *   - no 5xx, except a 500 a scenario asked for (X-Sandbox-Scenario-Applied names it);
 *   - every 4xx in its family's error shape (extended, simple, the control plane's, API Pix's problem
 *     details, or OAuth's for /oauth/token);
 *   - a request under API Pix's base path with an account's token changes no record of another account
 *     that its path names (cob, cobv, cobr, rec, solicrec, loc, locrec, pix, webhook), answers 2xx about
 *     a resource only when the caller holds it, and shows no txid, idRec, idSolicRec, end-to-end id or
 *     webhook key only another account holds (`isolationProblems`);
 *   - after each batch, the ledger invariant on every account (and no polluted Object.prototype), and
 *     that no receiver holds one txid twice across its cob, cobv, cobr and cash-in charges
 *     (`txidDuplicates`, reported apart from the problems).
 * Tokens are issued again after each batch (a clock advance may have expired them).
 *
 * Left out on purpose: PUT /__sandbox/snapshot and clock settings far in the future, whose hardening
 * (atomic import, the clock's range) has tests of its own; a full reset (it would remove
 * the run's accounts; resetting one account is in).
 */
export interface FuzzOptions {
  requests: number
  seed: number
  /** Requests between two ledger checks. */
  batch?: number
  /** Called after each batch with the requests made so far. */
  progress?: (done: number) => void
}

export interface FuzzReport {
  seed: number
  requests: number
  byStatus: Record<string, number>
  /** The same, of the requests under API Pix's base path: how deep the run goes there. */
  apiPixByStatus: Record<string, number>
  /** 5xx answers that no scenario asked for. */
  serverErrors: number
  /** 500s a scenario asked for (INTERNAL_ERROR, PROVIDER_UNAVAILABLE). */
  requestedServerErrors: number
  batches: number
  /** Every failed check, with the request that caused it (the first 50). */
  problems: string[]
  problemCount: number
  /**
   * Requests under API Pix's base path with a token whose isolation was checked: they changed no record of
   * another account that their path names, answered 2xx only about their own, and showed no id of another's.
   */
  isolationChecked: number
  /** txids a receiver holds twice across cob, cobv and cobr (API Pix: unique per receiver), the first 50. */
  txidDuplicates: string[]
  txidDuplicateCount: number
  ms: number
}

const T0 = '2026-03-10T15:00:00.000Z'
/** API Pix's base path: the default of the configuration the run's sandbox is built with. */
const API_PIX = '/v2'
/** Scenarios whose effect is a 500. */
const SERVER_ERROR_SCENARIOS = new Set(['INTERNAL_ERROR', 'PROVIDER_UNAVAILABLE'])

interface FuzzAccount { accountId: number, clientId: string, clientSecret: string, certificate: string, token: string, apiPixToken: string, mercadoPagoToken: string }

/** An id an answer returned, and the account it is of (undefined when the answer did not say: the control plane's). */
interface Owned<T> { value: T, accountId: number | undefined }

/** API Pix's kinds of charge: a txid names one of a kind, and a path of another kind does not find it. */
type ChargeKind = 'cob' | 'cobv' | 'cobr'
/** A location of charges serves charges of one kind (its tipoCob). */
type LocKind = 'cob' | 'cobv'

/**
 * What earlier answers returned, for later requests to use. The ids a token's account reaches (its
 * transactions, charges, locations, recurrences...) are kept with their account, so that a request is
 * mostly given its caller's (see `drawn`); txids and locations of charges are also kept by kind, so
 * that a request is mostly given one of the kind its path is about (see `drawnOfKind`).
 */
interface Pools {
  transactions: Array<Owned<string>>
  endToEndIds: Array<Owned<string>>
  txids: Record<ChargeKind, Array<Owned<string>>>
  pixCodes: string[]
  meds: number[]
  webhooks: number[]
  deliveries: string[]
  armed: number[]
  keys: string[]
  /** Keys the run's accounts hold (`fuzz<accountId>@example.com`), for API Pix's webhook/{chave}. */
  ownKeys: Array<Owned<string>>
  /** API Pix: payload locations of charges (by tipoCob) and of recurrences, recurrences, their requests. */
  locs: Record<LocKind, Array<Owned<number>>>
  locrecs: Array<Owned<number>>
  idRecs: Array<Owned<string>>
  idSolicRecs: Array<Owned<string>>
  /** The paths of signed payloads (`/qr/v2/...`), from the locations' `location`. */
  payloads: string[]
  behaviours: number[]
  /** Mercado Pago's payment ids (and, apart, its refund ids). */
  mpPayments: Array<Owned<number>>
  mpRefunds: number[]
}

interface World {
  app: FastifyInstance
  accounts: FuzzAccount[]
  pools: Pools
  /** The txid duplicates already reported. */
  duplicatesSeen: Set<string>
}

/** What a request is drawn from: the run, and the account whose token it will carry (none: no token). */
interface Draw extends World {
  caller: number | undefined
}

const pick = <T>(list: readonly T[], i: number, fallback: T): T => list.length === 0 ? fallback : list[i % list.length]
const remember = <T>(list: T[], value: T): void => {
  if (list.includes(value)) return
  list.push(value)
  if (list.length > 200) list.shift()
}
const rememberOwned = <T>(list: Array<Owned<T>>, value: T, accountId: number | undefined): void => {
  if (list.some(x => x.value === value && x.accountId === accountId)) return
  list.push({ value, accountId })
  if (list.length > 200) list.shift()
}

/**
 * One draw in FOREIGN_EVERY takes an id of any account; the others take one of the caller's, when it
 * has one. Another account's id is a correct 404, which a few requests should meet (the sandbox never
 * acts for an account the token was not issued to), not most: the rest go past it, deep into the
 * capability.
 */
const FOREIGN_EVERY = 10
function drawn<T> (d: Draw, list: ReadonlyArray<Owned<T>>, i: number, fallback: T): T {
  if (d.caller !== undefined && i % FOREIGN_EVERY !== 0) {
    const mine = list.filter(x => x.accountId === d.caller)
    if (mine.length > 0) return mine[Math.floor(i / FOREIGN_EVERY) % mine.length].value
  }
  return list.length === 0 ? fallback : list[i % list.length].value
}

/**
 * One draw in OTHER_KIND_EVERY takes an id of another kind (a cob's txid for a cobv's path: a correct
 * 404, which a few requests should meet), the others one of the kind asked for; either way through
 * `drawn`, so mostly the caller's. The other kind's draws are the ones `drawn` keeps to the caller
 * (i % FOREIGN_EVERY is 1, not 0), so that what such a request meets is the kind alone.
 */
const OTHER_KIND_EVERY = FOREIGN_EVERY
function drawnOfKind<K extends string, T> (d: Draw, pools: Record<K, ReadonlyArray<Owned<T>>>, kind: K, i: number, fallback: T): T {
  const others = (Object.keys(pools) as K[]).filter(k => k !== kind).flatMap(k => pools[k])
  return drawn(d, i % OTHER_KIND_EVERY === 1 && others.length > 0 ? others : pools[kind], i, fallback)
}
/** Every id of the pools, whatever its kind, for a path that takes any (GET /loc/{id}). */
const allKinds = <T>(pools: Record<string, Array<Owned<T>>>): Array<Owned<T>> => Object.values(pools).flat()

/** The kind of charge of the paths whose answers carry txids (a location's answer says its tipoCob). */
const CHARGE_KIND_OF_PATH: Record<string, ChargeKind> = {
  '/cob': 'cob',
  [`${API_PIX}/cob`]: 'cob',
  [`${API_PIX}/cobv`]: 'cobv',
  [`${API_PIX}/lotecobv`]: 'cobv',
  '/__sandbox/cobvs': 'cobv',
  [`${API_PIX}/cobr`]: 'cobr',
}
function chargeKindOf (path: string, record: Record<string, unknown>): ChargeKind | undefined {
  if (record.tipoCob === 'cob' || record.tipoCob === 'cobv') return record.tipoCob
  const segments = path.split('/')
  return CHARGE_KIND_OF_PATH[segments.slice(0, 3).join('/')] ?? CHARGE_KIND_OF_PATH[segments.slice(0, 2).join('/')]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const E2E = /^[ED][0-9A-Za-z]{31}$/

/**
 * Ids in an answer, wherever they are (three levels deep is enough for every answer of both dialects),
 * each of the account the answer was for: the caller's, or the `accountId` a control-plane record names.
 */
function harvest (pools: Pools, url: string, value: unknown, owner: number | undefined, depth = 0, parent = ''): void {
  if (depth > 3 || value === null || typeof value !== 'object') return
  const path = url.split('?')[0]
  const record = value as Record<string, unknown>
  const of = typeof record.accountId === 'number' ? record.accountId : owner
  for (const [key, v] of Object.entries(record)) {
    if (typeof v === 'string') {
      if (UUID.test(v) && (key === 'transactionId' || key === 'id' || key === 'endToEndId')) {
        if (url.includes('/webhooks/deliveries') || url.includes('/webhooks/test')) remember(pools.deliveries, v)
        else rememberOwned(pools.transactions, v, of)
      }
      if (E2E.test(v)) rememberOwned(pools.endToEndIds, v, of)
      if (key === 'txid' && /^[a-zA-Z0-9]{26,35}$/.test(v)) {
        // A txid whose kind the answer does not tell (a Pix's) is left out: the charge's own answer gave it;
        // so is one a batch refused (NEGADA), which names no charge.
        const kind = chargeKindOf(path, record)
        if (kind !== undefined && record.status !== 'NEGADA') rememberOwned(pools.txids[kind], v, of)
      }
      if ((key === 'pixCode' || key === 'pixCopiaECola' || key === 'qr_code') && v.startsWith('000201')) remember(pools.pixCodes, v)
      if (key === 'idRec' && /^R[RN]/.test(v)) rememberOwned(pools.idRecs, v, of)
      if (key === 'idSolicRec') rememberOwned(pools.idSolicRecs, v, of)
      if (key === 'location' && v.includes(`${PAYLOAD_PATH}/`)) remember(pools.payloads, v.slice(v.indexOf(`${PAYLOAD_PATH}/`)))
    } else if (typeof v === 'number' && key === 'id' && path.startsWith('/v1/payments')) {
      if (typeof record.payment_id === 'number') remember(pools.mpRefunds, v)
      else if (parent === '' || parent === 'results' || /^\d+$/.test(parent)) rememberOwned(pools.mpPayments, v, of)
    } else if (typeof v === 'number' && key === 'id') {
      // A recurrence's `loc` is a location of recurrences; a charge's, a location of charges.
      if (path.startsWith(`${API_PIX}/locrec`) || (parent === 'loc' && path.startsWith(`${API_PIX}/rec`))) rememberOwned(pools.locrecs, v, of)
      else if ((path.startsWith(`${API_PIX}/loc`) || parent === 'loc') && (record.tipoCob === 'cob' || record.tipoCob === 'cobv')) rememberOwned(pools.locs[record.tipoCob], v, of)
      else if (path.startsWith('/__sandbox/payer-behaviours')) remember(pools.behaviours, v)
      else if (url.startsWith('/__sandbox/med')) remember(pools.meds, v)
      else if (url.startsWith('/__sandbox/webhooks') && !url.includes('deliveries')) remember(pools.webhooks, v)
      else if (url.startsWith('/__sandbox/scenarios/arm')) remember(pools.armed, v)
    } else {
      harvest(pools, url, v, of, depth + 1, key)
    }
  }
}

// ---- endpoints ------------------------------------------------------------------------------------

/** `api-pix`: a token of /oauth/token, or now and then the gateway's (both dialects take either); `mercado-pago`: the account's access token. */
type Auth = 'token' | 'api-pix' | 'mercado-pago' | 'none'

interface Request { method: string, url: string, payload: Payload, headers: Record<string, string>, auth: Auth, account: number }

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The path, drawn when the request is generated (from the pools as they stand then). */
  path: (w: Draw) => fc.Arbitrary<string>
  body?: (w: Draw) => fc.Arbitrary<Payload>
  query?: fc.Arbitrary<string>
  headers?: fc.Arbitrary<Record<string, string>> | ((w: Draw) => fc.Arbitrary<Record<string, string>>)
  auth?: boolean | 'api-pix' | 'mercado-pago'
  weight?: number
}

/**
 * The transport faults that delay, hold or drop a request are left out: they do so by design (tested
 * over real sockets in test/flows/transport-faults.test.ts), and a held request only slows the fuzzing.
 */
const HOLDING = new Set(['LATENCY', 'TIMEOUT', 'CONNECTION_RESET'])
const scenarioNames = [...new Set(catalogue.filter(s => !HOLDING.has(s.name)).map(s => s.name))]
/** Mostly real scenario names (some with parameters), now and then an odd value. */
const scenarioHeader = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...scenarioNames).map(n => ({ 'x-sandbox-scenario': n })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...scenarioNames), fc.constantFrom('ms=0', 'ms=10', 'ms=abc', 'ms=99999999999', 'x=1', '')).map(([n, p]) => ({ 'x-sandbox-scenario': `${n};${p}` })) },
  { weight: 1, arbitrary: headerValue.map(v => ({ 'x-sandbox-scenario': v })) }
)
const someHeaders = fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: scenarioHeader }, { weight: 2, arbitrary: oddHeaders })

const fixed = (p: string) => () => fc.constant(p)
/** A path segment: mostly a live id, else an odd one. */
function segment (live: (w: Draw, i: number) => string | number): (w: Draw) => fc.Arbitrary<string> {
  return (w) => fc.oneof(
    { weight: 3, arbitrary: fc.nat().map(i => encodeURIComponent(String(live(w, i)))) },
    { weight: 1, arbitrary: oddSegment }
  )
}
const accountId = (w: World, i: number) => pick(w.accounts, i, w.accounts[0]).accountId
const anyTx = (w: Draw, i: number) => drawn(w, w.pools.transactions, i, '00000000-0000-4000-8000-000000000000')
const anyE2e = (w: Draw, i: number) => drawn(w, w.pools.endToEndIds, i, 'E00000000202603101500aaaaaaaaaaa')
const nearFuture = (w: World) => new Date(w.app.sandbox.clock.now() + 60_000).toISOString()

/** The largest amount: credited again and again, it is what could take an account past exact cents. */
const MAX = 999_999_999_999.99

const uuidV4 = fc.uuid({ version: 4 })
const idempotency = fc.oneof(
  { weight: 4, arbitrary: uuidV4.map(k => ({ 'x-idempotency-key': k })) },
  { weight: 1, arbitrary: uuidV4.map(k => ({ 'x-idempotency-key': k.toUpperCase() })) },
  { weight: 1, arbitrary: headerValue.map(k => ({ 'x-idempotency-key': k })) }
)
/** A window of API Pix's lists around the run's start (the clock moves little during a run). */
const WINDOW = 'inicio=2026-03-01T00:00:00Z&fim=2026-04-01T00:00:00Z'
const listQuery = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(`?${WINDOW}`, `?${WINDOW}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`, `?${WINDOW}&cpf=52998224725`, `?${WINDOW}&status=ATIVA`, '?inicio=2026-04-01T00:00:00Z&fim=2026-03-01T00:00:00Z', '?inicio=x&fim=y', '') },
  { weight: 1, arbitrary: queryArb.map(q => `${q === '' ? '?' : q + '&'}${WINDOW}`) },
  { weight: 1, arbitrary: queryArb }
)
/** A txid no charge has: what an empty pool gives. */
const FRESH_TXID = 'fuzztxid00000000000000000001'
const anyTxid = (kind: ChargeKind) => (w: Draw, i: number) => drawnOfKind(w, w.pools.txids, kind, i, FRESH_TXID)
/** A txid of API Pix (26 to 35 characters): mostly a live one of the kind, else a fresh one or an odd segment. */
const txidSegment = (kind: ChargeKind) => (w: Draw) => fc.oneof(
  { weight: 3, arbitrary: segment(anyTxid(kind))(w) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/) }
)
const anyLoc = (kind: LocKind) => (w: Draw, i: number) => drawnOfKind(w, w.pools.locs, kind, i, 1)
const anyIdRec = (w: Draw, i: number) => drawn(w, w.pools.idRecs, i, 'RN1234567820260310abcdefghijk')
/** A recurrence's debtor, a fresh object each time (the mutations change the template they are given). */
const DEBTOR_CPF = '52998224725'
const debtor = () => ({ cpf: DEBTOR_CPF, nome: 'MARIA PAGADORA' })

let unique = 0
const uniq = (p: string) => `${p}-${++unique}`

function endpoints (): Endpoint[] {
  // Two in five bodies are the valid template as it is (so the run reaches settlement, refunds and MED),
  // the rest hostile ones (bodyArb: mostly mutations of the template).
  const body = (template: (w: Draw) => Json) => (w: Draw) => fc.oneof(
    { weight: 2, arbitrary: fc.constant(null).map((): Payload => ({ text: JSON.stringify(template(w)), contentType: 'application/json' })) },
    { weight: 3, arbitrary: bodyArb(() => template(w)) }
  )
  return [
    // ---- the gateway ----
    { method: 'POST', path: fixed('/api/auth/token'), auth: false, body: body(w => ({ clientId: w.accounts[0].clientId, clientSecret: w.accounts[0].clientSecret })) },
    { method: 'GET', path: fixed('/balance'), auth: true },
    { method: 'GET', path: fixed('/api/balance'), auth: true },
    { method: 'GET', path: fixed('/accounts/balances'), auth: true },
    { method: 'POST', path: fixed('/api/pix/cash-out'), auth: true, weight: 3, body: body(() => ({ value: 0.5, externalId: uniq('co'), description: 'fuzz', details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao', document: '03742693433' } })) },
    { method: 'POST', path: fixed('/api/pix/cash-out-qrcode'), auth: true, weight: 2, body: body(w => ({ value: 1, qrCode: pick(w.pools.pixCodes, unique, '000201'), externalId: uniq('qr') })) },
    { method: 'POST', path: fixed('/dict/pix'), auth: true, weight: 2, headers: fc.tuple(idempotency, someHeaders).map(([a, b]) => ({ ...b, ...a })), body: body(() => ({ pixKey: '+5511987654321', payment: { currency: 'BRL', amount: 0.25 }, priority: 'NORM', description: 'fuzz' })) },
    { method: 'POST', path: fixed('/api/pix/cash-in'), auth: true, weight: 3, body: body(() => ({ transaction: { value: 2, description: 'fuzz', externalId: uniq('ci'), generateQrCode: false }, payer: { fullName: 'Maria', document: '52998224725' }, splits: [{ pixKey: '52998224725', pixKeyType: 'CPF', name: 'S', document: '52998224725', type: 'PERCENTAGE', value: 10, immediate: true }] })) },
    { method: 'POST', path: w => segment(anyTx)(w).map(id => `/api/pix/refund-in/${id}`), auth: true, weight: 2, body: body(() => ({ refundValue: 0.01, reason: 'fuzz' })) },
    { method: 'PUT', path: w => txidSegment('cob')(w).map(id => `/cob/${id}`), auth: true, weight: 2, body: body(() => ({ calendario: { expiracao: 3600 }, devedor: { cpf: '52998224725', nome: 'Maria' }, valor: { original: '1.50' }, chave: 'loja@example.com', solicitacaoPagador: 'fuzz', infoAdicionais: [{ nome: 'a', valor: 'b' }] })) },
    { method: 'GET', path: w => segment(anyTxid('cob'))(w).map(id => `/cob/${id}`), auth: true },
    { method: 'PATCH', path: w => segment(anyTxid('cob'))(w).map(id => `/cob/${id}`), auth: true, body: body(() => ({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })) },
    { method: 'PUT', path: w => fc.tuple(segment(anyE2e)(w), fc.oneof(fc.stringMatching(/^[a-zA-Z0-9]{1,35}$/), oddSegment)).map(([e, id]) => `/pix/${e}/devolucao/${id}`), auth: true, weight: 2, body: body(() => ({ valor: '0.01', natureza: 'ORIGINAL', descricao: 'fuzz' })) },
    { method: 'GET', path: w => fc.tuple(segment(anyE2e)(w), fc.stringMatching(/^[a-zA-Z0-9]{1,35}$/)).map(([e, id]) => `/pix/${e}/devolucao/${id}`), auth: true },
    { method: 'GET', path: fixed('/api/med'), auth: true, query: fc.oneof(queryArb, fc.constantFrom('?status=OPEN', '?page=2&pageSize=1', '?startDate=2026-03-10&endDate=2026-03-11', '?isReconciled=true')) },
    { method: 'POST', path: fixed('/api/webhooks'), auth: true, body: body(() => ({ url: 'https://example.invalid/hook', eventType: 'cash_in', headers: [{ key: 'X-Api-Key', value: 'k' }] })) },
    { method: 'GET', path: fixed('/api/webhooks'), auth: true },

    // ---- API Pix (docs/api-pix.md) ----
    {
      method: 'POST',
      path: fixed(OAUTH_TOKEN_PATH),
      headers: w => fc.oneof(
        { weight: 4, arbitrary: fc.nat().map(i => oauthHeaders(pick(w.accounts, i, w.accounts[0]))) },
        { weight: 1, arbitrary: fc.tuple(fc.nat(), headerValue).map(([i, v]) => ({ ...oauthHeaders(pick(w.accounts, i, w.accounts[0])), authorization: v })) },
        { weight: 1, arbitrary: fc.nat().map(i => ({ ...oauthHeaders(pick(w.accounts, i, w.accounts[0])), 'content-type': 'application/json' })) }
      ),
      body: w => fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('grant_type=client_credentials', 'grant_type=client_credentials&scope=cob.read%20cob.write', 'grant_type=password', 'grant_type=client_credentials&scope=nope', 'grant_type=client_credentials&grant_type=client_credentials', '', '%%%').map((text): Payload => ({ text })) },
        { weight: 2, arbitrary: body(x => ({ grant_type: 'client_credentials', client_id: x.accounts[0].clientId, client_secret: x.accounts[0].clientSecret }))(w) }
      ),
    },
    { method: 'GET', path: fixed(JWKS_PATH) },
    { method: 'GET', path: w => fc.oneof(fc.nat().map(i => pick(w.pools.payloads, i, `${PAYLOAD_PATH}/none`)), oddSegment.map(s => `${PAYLOAD_PATH}/${s}`), oddSegment.map(s => `${PAYLOAD_PATH}/rec/${s}`)), weight: 2 },
    { method: 'PUT', path: w => txidSegment('cob')(w).map(id => `${API_PIX}/cob/${id}`), auth: 'api-pix', weight: 2, body: body(w => ({ calendario: { expiracao: 3600 }, devedor: { cpf: '52998224725', nome: 'Maria' }, valor: { original: '1.50', modalidadeAlteracao: 1 }, chave: pick(w.pools.keys, unique, 'loja@example.com'), solicitacaoPagador: 'fuzz', infoAdicionais: [{ nome: 'a', valor: 'b' }], ...(unique % 3 === 0 ? { loc: { id: anyLoc('cob')(w, unique) } } : {}) })) },
    { method: 'POST', path: fixed(`${API_PIX}/cob`), auth: 'api-pix', weight: 2, body: body(w => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: pick(w.pools.keys, unique, 'loja@example.com') })) },
    { method: 'GET', path: w => txidSegment('cob')(w).map(id => `${API_PIX}/cob/${id}`), auth: 'api-pix', query: fc.oneof(fc.constant(''), fc.constant('?revisao=0'), queryArb) },
    { method: 'PATCH', path: w => txidSegment('cob')(w).map(id => `${API_PIX}/cob/${id}`), auth: 'api-pix', body: body(() => unique % 2 === 0 ? { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } : { valor: { original: '2.00' }, devedor: { cnpj: '12345678000195', nome: 'Empresa' } }) },
    { method: 'GET', path: fixed(`${API_PIX}/cob`), auth: 'api-pix', query: listQuery },
    { method: 'PUT', path: w => txidSegment('cobv')(w).map(id => `${API_PIX}/cobv/${id}`), auth: 'api-pix', weight: 2, body: body(w => ({ calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 3 }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '100.00', multa: { modalidade: 1, valorPerc: '5.00' }, juros: { modalidade: 1, valorPerc: '1.00' }, desconto: { modalidade: 3, valorPerc: '0.50' } }, chave: pick(w.pools.keys, unique, 'loja@example.com'), ...(unique % 3 === 0 ? { loc: { id: anyLoc('cobv')(w, unique) } } : {}) })) },
    { method: 'GET', path: w => txidSegment('cobv')(w).map(id => `${API_PIX}/cobv/${id}`), auth: 'api-pix' },
    { method: 'PATCH', path: w => txidSegment('cobv')(w).map(id => `${API_PIX}/cobv/${id}`), auth: 'api-pix', body: body(() => unique % 2 === 0 ? { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } : { valor: { original: '90.00' }, calendario: { dataDeVencimento: '2026-03-20' } }) },
    { method: 'GET', path: fixed(`${API_PIX}/cobv`), auth: 'api-pix', query: listQuery },
    { method: 'PUT', path: w => segment((_, i) => i % 20)(w).map(id => `${API_PIX}/lotecobv/${id}`), auth: 'api-pix', body: body(w => ({ descricao: 'fuzz', cobsv: [1, 2].map(n => ({ txid: `fuzzlote${String(unique * 2 + n).padStart(20, '0')}`, calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: `${n}0.00` }, chave: pick(w.pools.keys, unique, 'loja@example.com') })) })) },
    { method: 'PATCH', path: w => segment((_, i) => i % 20)(w).map(id => `${API_PIX}/lotecobv/${id}`), auth: 'api-pix', body: body(w => ({ cobsv: [{ txid: anyTxid('cobv')(w, unique), valor: { original: '15.00' } }] })) },
    { method: 'GET', path: w => segment((_, i) => i % 20)(w).map(id => `${API_PIX}/lotecobv/${id}`), auth: 'api-pix' },
    { method: 'GET', path: fixed(`${API_PIX}/lotecobv`), auth: 'api-pix', query: listQuery },
    { method: 'POST', path: fixed(`${API_PIX}/loc`), auth: 'api-pix', body: body(() => ({ tipoCob: unique % 2 === 0 ? 'cob' : 'cobv' })) },
    { method: 'GET', path: fixed(`${API_PIX}/loc`), auth: 'api-pix', query: listQuery },
    { method: 'GET', path: w => segment((x, i) => drawn(x, allKinds(x.pools.locs), i, 1))(w).map(id => `${API_PIX}/loc/${id}`), auth: 'api-pix' },
    { method: 'DELETE', path: w => segment((x, i) => drawn(x, allKinds(x.pools.locs), i, 1))(w).map(id => `${API_PIX}/loc/${id}/txid`), auth: 'api-pix', weight: 0.5 },
    { method: 'GET', path: fixed(`${API_PIX}/pix`), auth: 'api-pix', query: listQuery },
    { method: 'GET', path: w => segment(anyE2e)(w).map(e => `${API_PIX}/pix/${e}`), auth: 'api-pix' },
    { method: 'PUT', path: w => fc.tuple(segment(anyE2e)(w), fc.oneof(fc.stringMatching(/^[a-zA-Z0-9]{1,35}$/), oddSegment)).map(([e, id]) => `${API_PIX}/pix/${e}/devolucao/${id}`), auth: 'api-pix', weight: 2, body: body(() => ({ valor: ['0.01', '20.00', '999999999.99'][unique % 3], natureza: 'ORIGINAL', descricao: 'fuzz' })) },
    { method: 'GET', path: w => fc.tuple(segment(anyE2e)(w), fc.stringMatching(/^[a-zA-Z0-9]{1,35}$/)).map(([e, id]) => `${API_PIX}/pix/${e}/devolucao/${id}`), auth: 'api-pix' },
    { method: 'PUT', path: w => fc.oneof(fc.nat().map(i => encodeURIComponent(drawn(w, w.pools.ownKeys, i, 'loja@example.com'))), fc.nat().map(i => encodeURIComponent(pick(w.pools.keys, i, 'loja@example.com'))), oddSegment).map(k => `${API_PIX}/webhook/${k}`), auth: 'api-pix', body: body(() => ({ webhookUrl: 'https://erp.example.invalid/api/webhook' })) },
    { method: 'GET', path: w => fc.nat().map(i => `${API_PIX}/webhook/${encodeURIComponent(drawn(w, w.pools.ownKeys, i, 'loja@example.com'))}`), auth: 'api-pix' },
    { method: 'DELETE', path: w => fc.oneof(fc.nat().map(i => encodeURIComponent(drawn(w, w.pools.ownKeys, i, 'loja@example.com'))), oddSegment).map(k => `${API_PIX}/webhook/${k}`), auth: 'api-pix', weight: 0.3 },
    { method: 'GET', path: fixed(`${API_PIX}/webhook`), auth: 'api-pix', query: listQuery },
    // Pix Automático
    { method: 'POST', path: fixed(`${API_PIX}/rec`), auth: 'api-pix', weight: 2, body: body(w => ({ vinculo: { contrato: uniq('ct'), devedor: debtor(), objeto: 'Streaming' }, calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: ['MENSAL', 'SEMANAL', 'ANUAL'][unique % 3] }, valor: unique % 2 === 0 ? { valorRec: '35.00' } : { valorMinimoRecebedor: '10.00' }, politicaRetentativa: unique % 2 === 0 ? 'PERMITE_3R_7D' : 'NAO_PERMITE', ...(unique % 4 === 0 ? { loc: drawn(w, w.pools.locrecs, unique, 1) } : {}) })) },
    { method: 'GET', path: fixed(`${API_PIX}/rec`), auth: 'api-pix', query: listQuery },
    { method: 'GET', path: w => segment(anyIdRec)(w).map(id => `${API_PIX}/rec/${id}`), auth: 'api-pix', query: fc.oneof(fc.constant(''), fc.constant(`?txid=${FRESH_TXID}`), queryArb) },
    { method: 'PATCH', path: w => segment(anyIdRec)(w).map(id => `${API_PIX}/rec/${id}`), auth: 'api-pix', body: body(() => unique % 2 === 0 ? { status: 'CANCELADA' } : { vinculo: { devedor: { nome: 'Fulano de Tal Jr' } }, calendario: { dataInicial: '2026-05-01' } }) },
    { method: 'POST', path: fixed(`${API_PIX}/solicrec`), auth: 'api-pix', body: body(w => ({ idRec: anyIdRec(w, unique), calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' }, destinatario: { agencia: '2569', conta: '550689', cpf: '52998224725', ispbParticipante: '91193552' } })) },
    { method: 'GET', path: w => segment((x, i) => drawn(x, x.pools.idSolicRecs, i, 'SC0000000020260310abcdefghijk'))(w).map(id => `${API_PIX}/solicrec/${id}`), auth: 'api-pix' },
    { method: 'PATCH', path: w => segment((x, i) => drawn(x, x.pools.idSolicRecs, i, 'SC0000000020260310abcdefghijk'))(w).map(id => `${API_PIX}/solicrec/${id}`), auth: 'api-pix', body: body(() => ({ status: 'CANCELADA' })) },
    { method: 'POST', path: fixed(`${API_PIX}/locrec`), auth: 'api-pix' },
    { method: 'GET', path: fixed(`${API_PIX}/locrec`), auth: 'api-pix', query: listQuery },
    { method: 'GET', path: w => segment((x, i) => drawn(x, x.pools.locrecs, i, 1))(w).map(id => `${API_PIX}/locrec/${id}`), auth: 'api-pix' },
    { method: 'DELETE', path: w => segment((x, i) => drawn(x, x.pools.locrecs, i, 1))(w).map(id => `${API_PIX}/locrec/${id}/idRec`), auth: 'api-pix', weight: 0.5 },
    { method: 'PUT', path: w => txidSegment('cobr')(w).map(id => `${API_PIX}/cobr/${id}`), auth: 'api-pix', weight: 2, body: body(w => ({ idRec: anyIdRec(w, unique), infoAdicional: 'fuzz', calendario: { dataDeVencimento: ['2026-03-20', '2026-04-20', '2026-03-11'][unique % 3] }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' }, devedor: { email: 'maria@example.com', cep: '89256-140' } })) },
    { method: 'POST', path: fixed(`${API_PIX}/cobr`), auth: 'api-pix', body: body(w => ({ idRec: anyIdRec(w, unique), calendario: { dataDeVencimento: '2026-04-20' }, valor: { original: '35.00' }, ajusteDiaUtil: false, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } })) },
    { method: 'GET', path: w => txidSegment('cobr')(w).map(id => `${API_PIX}/cobr/${id}`), auth: 'api-pix' },
    { method: 'PATCH', path: w => txidSegment('cobr')(w).map(id => `${API_PIX}/cobr/${id}`), auth: 'api-pix', body: body(() => ({ status: 'CANCELADA' })) },
    { method: 'GET', path: fixed(`${API_PIX}/cobr`), auth: 'api-pix', query: listQuery },
    { method: 'POST', path: w => fc.tuple(txidSegment('cobr')(w), fc.oneof(fc.constantFrom('2026-03-23', '2026-03-28', '2026-02-30', '2026-13-01', '9999-12-31'), oddSegment)).map(([id, d]) => `${API_PIX}/cobr/${id}/retentativa/${d}`), auth: 'api-pix' },
    ...['webhookrec', 'webhookcobr'].flatMap((hook): Endpoint[] => [
      { method: 'PUT', path: fixed(`${API_PIX}/${hook}`), auth: 'api-pix', body: body(() => ({ webhookUrl: `https://erp.example.invalid/api/${hook}/` })) },
      { method: 'GET', path: fixed(`${API_PIX}/${hook}`), auth: 'api-pix' },
      { method: 'DELETE', path: fixed(`${API_PIX}/${hook}`), auth: 'api-pix', weight: 0.3 },
    ]),

    // ---- Mercado Pago (docs/mercado-pago.md) ----
    { method: 'POST', path: fixed('/v1/payments'), auth: 'mercado-pago', weight: 3, headers: fc.tuple(idempotency, someHeaders).map(([a, b]) => ({ ...b, ...a })), body: body(() => ({ transaction_amount: [1.5, 10, 999999999.99][unique % 3], payment_method_id: 'pix', description: 'fuzz', external_reference: uniq('mp'), notification_url: 'http://127.0.0.1:9/mp', metadata: { orderId: unique }, payer: { email: 'p@example.com', identification: { type: 'CPF', number: '19119119100' } } })) },
    { method: 'GET', path: w => segment((x, i) => drawn(x, x.pools.mpPayments, i, 140000000001))(w).map(id => `/v1/payments/${id}`), auth: 'mercado-pago' },
    { method: 'GET', path: fixed('/v1/payments/search'), auth: 'mercado-pago', query: fc.oneof(queryArb, fc.constantFrom('?sort=id&criteria=asc&limit=5', '?begin_date=NOW-1DAYS&end_date=NOW', '?status=approved', '?offset=20000', '?begin_date=NOW-9999DAYS')) },
    { method: 'PUT', path: w => segment((x, i) => drawn(x, x.pools.mpPayments, i, 140000000001))(w).map(id => `/v1/payments/${id}`), auth: 'mercado-pago', body: body(() => ({ status: 'cancelled' })) },
    { method: 'POST', path: w => segment((x, i) => drawn(x, x.pools.mpPayments, i, 140000000001))(w).map(id => `/v1/payments/${id}/refunds`), auth: 'mercado-pago', weight: 2, headers: fc.tuple(idempotency, someHeaders).map(([a, b]) => ({ ...b, ...a })), body: body(() => unique % 2 === 0 ? {} : { amount: [0.01, 1, 1e15][unique % 3] }) },
    { method: 'GET', path: w => segment((x, i) => drawn(x, x.pools.mpPayments, i, 140000000001))(w).map(id => `/v1/payments/${id}/refunds${unique % 2 === 0 ? '/' : ''}`), auth: 'mercado-pago' },
    { method: 'GET', path: w => fc.tuple(segment((x, i) => drawn(x, x.pools.mpPayments, i, 140000000001))(w), segment((x, i) => pick(x.pools.mpRefunds, i, 1200000001))(w)).map(([id, r]) => `/v1/payments/${id}/refunds/${r}`), auth: 'mercado-pago' },

    // ---- the control plane ----
    { method: 'GET', path: fixed('/__sandbox/health') },
    { method: 'POST', path: fixed('/__sandbox/reset'), body: w => fc.oneof(fc.nat().map(i => ({ accountId: accountId(w, i) })), weird.map(v => ({ accountId: v }))).map(b => ({ text: JSON.stringify(b), contentType: 'application/json' })) },
    { method: 'GET', path: fixed('/__sandbox/clock') },
    { method: 'POST', path: fixed('/__sandbox/clock/advance'), weight: 2, body: body(() => ({ ms: 60_000 })) },
    { method: 'POST', path: fixed('/__sandbox/clock/set'), body: body(w => ({ now: nearFuture(w) })) },
    { method: 'POST', path: fixed('/__sandbox/clock/freeze') },
    // The next debit of a recurring charge: Pix Automático's debits run (tokens are issued again after a clock move).
    { method: 'POST', path: fixed('/__sandbox/clock/next-due'), weight: 0.5, body: body(w => unique % 2 === 0 ? {} : { accountId: accountId(w, unique) }) },
    { method: 'GET', path: fixed('/__sandbox/snapshot'), weight: 0.2 },
    { method: 'GET', path: fixed('/__sandbox/requests'), query: fc.oneof(queryArb, fc.constantFrom('?limit=5', '?accountId=1', '?limit=0', '?limit=1e9')) },
    { method: 'POST', path: fixed('/__sandbox/accounts'), body: body(() => ({ name: 'Fuzz', balance: 100, providerGroup: 'A', documentCheck: true, fee: 0.1, limits: { perTransaction: 1000, daily: 5000, nightly: 100 }, cashInMinExpirationSeconds: 60, splitFrequency: 'HOURLY' })) },
    { method: 'GET', path: fixed('/__sandbox/accounts') },
    { method: 'PATCH', path: w => fc.nat().map(i => `/__sandbox/accounts/${accountId(w, i)}`), weight: 0.3, body: body(() => ({ webhookMtlsCheck: true })) },
    { method: 'GET', path: w => segment(accountId)(w).map(id => `/__sandbox/accounts/${id}`) },
    { method: 'POST', path: w => segment(accountId)(w).map(id => `/__sandbox/accounts/${id}/balance`), weight: 2, body: body(() => ({ credit: [10, MAX, -MAX, 0.01][unique++ % 4] })) },
    { method: 'GET', path: fixed('/__sandbox/scenarios') },
    { method: 'POST', path: fixed('/__sandbox/scenarios/arm'), body: body(w => ({ accountId: accountId(w, unique), scenario: scenarioNames[unique % scenarioNames.length], times: 1 })) },
    { method: 'GET', path: fixed('/__sandbox/scenarios/armed'), query: fc.oneof(queryArb, fc.constant('?accountId=2')) },
    { method: 'DELETE', path: w => segment((x, i) => pick(x.pools.armed, i, 1))(w).map(id => `/__sandbox/scenarios/armed/${id}`) },
    { method: 'POST', path: fixed('/__sandbox/webhooks'), body: body(w => ({ accountId: accountId(w, unique), eventType: 'cash_out', url: 'http://127.0.0.1:9/fuzz', headers: [{ key: 'X-Key', value: 'v' }] })) },
    { method: 'GET', path: fixed('/__sandbox/webhooks'), query: fc.oneof(queryArb, fc.constant('?accountId=2')) },
    { method: 'PATCH', path: w => segment((x, i) => pick(x.pools.webhooks, i, 1))(w).map(id => `/__sandbox/webhooks/${id}`), body: body(() => ({ isActive: false, headers: [{ key: 'X-Other', value: 'v' }] })) },
    { method: 'DELETE', path: w => segment((x, i) => pick(x.pools.webhooks, i, 1))(w).map(id => `/__sandbox/webhooks/${id}`), weight: 0.3 },
    { method: 'POST', path: fixed('/__sandbox/webhooks/test'), body: body(w => ({ accountId: accountId(w, unique), eventType: 'cash_in', transactionId: anyTx(w, unique) })) },
    { method: 'GET', path: fixed('/__sandbox/webhooks/deliveries'), query: fc.oneof(queryArb, fc.constantFrom('?accountId=2&status=pending', '?limit=1', '?eventType=cash_in')) },
    // A long-poll: always with timeoutMs=0 (a generated query may add a second one, which is a 400).
    { method: 'GET', path: fixed('/__sandbox/webhooks/deliveries/wait'), query: queryArb.map(q => `${q === '' ? '?' : q + '&'}timeoutMs=0`) },
    { method: 'GET', path: w => segment((x, i) => pick(x.pools.deliveries, i, 'none'))(w).map(id => `/__sandbox/webhooks/deliveries/${id}`) },
    { method: 'POST', path: w => segment((x, i) => pick(x.pools.deliveries, i, 'none'))(w).map(id => `/__sandbox/webhooks/deliveries/${id}/redeliver`) },
    { method: 'GET', path: fixed('/__sandbox/transactions'), query: fc.oneof(queryArb, fc.constantFrom('?accountId=2&kind=CASH_OUT', '?status=PENDING&limit=3', '?kind=NOPE')) },
    { method: 'GET', path: w => segment(anyTx)(w).map(id => `/__sandbox/transactions/${id}`) },
    { method: 'POST', path: w => segment(anyTx)(w).map(id => `/__sandbox/transactions/${id}/settle`), weight: 2 },
    { method: 'POST', path: w => segment(anyTx)(w).map(id => `/__sandbox/transactions/${id}/fail`), weight: 2, body: body(() => ({ errorCode: 'ORDER_REJECTED' })) },
    { method: 'POST', path: w => segment(anyTx)(w).map(id => `/__sandbox/transactions/${id}/refund-received`), weight: 2, body: body(() => ({ amount: 0.1, reason: 'fuzz' })) },
    { method: 'GET', path: fixed('/__sandbox/directory') },
    { method: 'PUT', path: w => fc.oneof(fc.nat().map(i => encodeURIComponent(pick(w.pools.keys, i, 'fuzz@example.com'))), unicode.map(encodeURIComponent), oddSegment).map(k => `/__sandbox/directory/${k}`), body: body(() => ({ keyType: 'EMAIL', name: 'Fuzz', document: '52998224725', ispb: '18236120', bankName: 'Banco', bankCode: '260', accountStatus: 'ACTIVE' })) },
    { method: 'DELETE', path: w => fc.nat().map(i => `/__sandbox/directory/${encodeURIComponent(pick(w.pools.keys, i, 'fuzz@example.com'))}`), weight: 0.3 },
    { method: 'POST', path: fixed('/__sandbox/pix/pay'), weight: 3, body: body(w => ({ pixCode: pick(w.pools.pixCodes, unique, '000201'), payer: { name: 'Pagador', document: '52998224725' } })) },
    { method: 'POST', path: fixed('/__sandbox/pix/incoming'), weight: 2, body: body(w => ({ accountId: accountId(w, unique), amount: unique++ % 3 === 0 ? MAX : 3, payer: { name: 'Pagador', document: '52998224725', ispb: '18236120' } })) },
    { method: 'POST', path: fixed('/__sandbox/med'), weight: 2, body: body(w => ({ endToEndId: anyE2e(w, unique), reason: 'REFUND_REQUEST', cause: unique % 2 === 0 ? 'FRAUD' : 'OTHER', description: 'fuzz' })) },
    { method: 'GET', path: fixed('/__sandbox/med'), query: fc.oneof(queryArb, fc.constant('?accountId=2')) },
    { method: 'GET', path: w => segment((x, i) => pick(x.pools.meds, i, 1))(w).map(id => `/__sandbox/med/${id}`) },
    { method: 'POST', path: w => segment(anyIdRec)(w).map(id => `/__sandbox/recurrences/${id}/approve`), weight: 2, body: body(() => unique % 3 === 0 ? {} : { jornada: ['JORNADA_1', 'JORNADA_2', 'JORNADA_3'][unique % 3], pagador: { ispbParticipante: '60701190', cpf: DEBTOR_CPF }, valorMaximo: '100.00' }) },
    { method: 'POST', path: w => segment(anyIdRec)(w).map(id => `/__sandbox/recurrences/${id}/reject`), weight: 0.5, body: body(() => ({ codigo: 'AP13', by: unique % 2 === 0 ? 'USUARIO_PAGADOR' : 'PSP_PAGADOR' })) },
    { method: 'POST', path: w => segment(anyIdRec)(w).map(id => `/__sandbox/recurrences/${id}/expire`), weight: 0.5 },
    { method: 'POST', path: w => segment(anyIdRec)(w).map(id => `/__sandbox/recurrences/${id}/cancel`), weight: 0.5, body: body(() => ({})) },
    { method: 'PUT', path: fixed('/__sandbox/payer-behaviours'), body: body(w => ({ accountId: accountId(w, unique), document: DEBTOR_CPF, authorization: 'APPROVE', debit: 'PAGA', valorMaximo: '100.00' })) },
    { method: 'GET', path: fixed('/__sandbox/payer-behaviours'), query: fc.oneof(queryArb, fc.constant('?accountId=2')) },
    { method: 'DELETE', path: w => segment((x, i) => pick(x.pools.behaviours, i, 1))(w).map(id => `/__sandbox/payer-behaviours/${id}`), weight: 0.3 },
    ...['/__sandbox/api-pix-webhooks', '/__sandbox/cobvs', '/__sandbox/cobv-batches', '/__sandbox/locations'].map((p): Endpoint => ({ method: 'GET', path: fixed(p), query: fc.oneof(queryArb, fc.constant('?accountId=2')), weight: 0.5 })),
    { method: 'POST', path: w => segment((x, i) => pick(x.pools.meds, i, 1))(w).map(id => `/__sandbox/med/${id}/transition`), weight: 2, body: body(() => ({ status: ['RECEIVED', 'ANALYZED', 'CANCELLED'][unique % 3], analysisResult: unique % 2 === 0 ? 'APPROVED' : 'REJECTED' })) },
  ]
}

function requestArb (w: World, list: Endpoint[]): fc.Arbitrary<Request> {
  return fc.oneof(...list.map(ep => ({
    weight: Math.round((ep.weight ?? 1) * 10),
    // The caller first, so that the ids of the path and the body are drawn mostly from its own.
    arbitrary: fc.nat().chain(account => {
      const d: Draw = { ...w, caller: ep.auth ? pick(w.accounts, account, w.accounts[0]).accountId : undefined }
      return fc.record({
        path: fc.constant(null).chain(() => ep.path(d)),
        query: ep.query ?? fc.oneof({ weight: 5, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryArb }),
        payload: ep.body ? fc.constant(null).chain(() => ep.body!(d)) : fc.oneof({ weight: 5, arbitrary: fc.constant<Payload>({}) }, { weight: 1, arbitrary: bodyArb(() => ({})) }),
        headers: fc.tuple(typeof ep.headers === 'function' ? ep.headers(d) : ep.headers ?? someHeaders, fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: oddHeaders })).map(([a, b]) => ({ ...b, ...a })),
      }).map(r => ({ method: ep.method, url: r.path + r.query, payload: r.payload, headers: r.headers, auth: ep.auth === 'api-pix' || ep.auth === 'mercado-pago' ? ep.auth : ep.auth === true ? 'token' as const : 'none' as const, account }))
    }),
  })))
}

// ---- the run --------------------------------------------------------------------------------------

async function setUp (seed: number): Promise<World> {
  const app = await buildApp({ config: { seed: `fuzz-${seed}`, clock: 'frozen', clockStart: T0, settlementDelayMs: 50, medRateLimit: 1_000_000, maxPendingDeliveries: 1000 } })
  const accounts: FuzzAccount[] = [{ accountId: 1, clientId: 'pix-sandbox-client', clientSecret: 'pix-sandbox-secret-2026', certificate: app.sandbox.store.account(1)!.certificatePem, token: '', apiPixToken: '', mercadoPagoToken: app.sandbox.store.account(1)!.mercadoPago!.accessToken }]
  // Two of them with the mTLS check of their API Pix webhooks off, so their example receivers are kept (the fixture account's are checked, and refused).
  for (const settings of [{ balance: 1_000_000, fee: 0.5, webhookMtlsCheck: false }, { balance: 10, providerGroup: 'A', webhookMtlsCheck: false }, { balance: 0, splitFrequency: 'IMMEDIATE' }]) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: settings })
    if (res.statusCode !== 201) throw new Error(`fuzz set-up: ${res.statusCode} ${res.body}`)
    const a = res.json()
    accounts.push({ accountId: a.accountId, clientId: a.clientId, clientSecret: a.clientSecret, certificate: a.certificate, token: '', apiPixToken: '', mercadoPagoToken: a.mercadoPago.accessToken })
  }
  if (app.sandbox.config.apiPixBasePath !== API_PIX) throw new Error(`fuzz set-up: API Pix under ${app.sandbox.config.apiPixBasePath}, not ${API_PIX}`)
  const keys = Object.keys(app.sandbox.store.data.directory)
  const pools: Pools = { transactions: [], endToEndIds: [], txids: { cob: [], cobv: [], cobr: [] }, pixCodes: [], meds: [], webhooks: [], deliveries: [], armed: [], keys, ownKeys: [], locs: { cob: [], cobv: [] }, locrecs: [], idRecs: [], idSolicRecs: [], payloads: [], behaviours: [], mpPayments: [], mpRefunds: [] }
  for (const a of accounts) {
    const { name, document, ispb } = app.sandbox.store.account(a.accountId)!
    const key = `fuzz${a.accountId}@example.com`
    const res = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${key}`, payload: { name, document, ispb, bankName: 'SANDBOX' } })
    if (res.statusCode !== 201) throw new Error(`fuzz set-up: ${res.statusCode} ${res.body}`)
    pools.ownKeys.push({ value: key, accountId: a.accountId })
  }
  return { app, accounts, pools, duplicatesSeen: new Set() }
}

/** What POST /oauth/token asks of a client: Basic credentials and the account's certificate, the body form-encoded. */
const oauthHeaders = (a: FuzzAccount): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${a.clientId}:${a.clientSecret}`).toString('base64')}`,
  'x-ssl-client-cert': encodeURIComponent(a.certificate),
  'content-type': 'application/x-www-form-urlencoded',
})

/** Tokens again (a clock advance expires them; a reset of one account keeps its credentials). */
async function refreshTokens (w: World): Promise<void> {
  for (const a of w.accounts) {
    const res = await w.app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(a.certificate) }, payload: { clientId: a.clientId, clientSecret: a.clientSecret } })
    a.token = res.statusCode === 201 ? res.json().access_token : ''
    const oauth = await w.app.inject({ method: 'POST', url: OAUTH_TOKEN_PATH, headers: oauthHeaders(a), payload: 'grant_type=client_credentials' })
    a.apiPixToken = oauth.statusCode === 200 ? oauth.json().access_token : ''
  }
}

export async function fuzz (opts: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now()
  const batch = opts.batch ?? 100
  const w = await setUp(opts.seed)
  const report: FuzzReport = { seed: opts.seed, requests: 0, byStatus: {}, apiPixByStatus: {}, serverErrors: 0, requestedServerErrors: 0, batches: 0, problems: [], problemCount: 0, isolationChecked: 0, txidDuplicates: [], txidDuplicateCount: 0, ms: 0 }
  const problem = (text: string): void => {
    report.problemCount++
    if (report.problems.length < 50) report.problems.push(text)
  }
  const list = endpoints()
  try {
    await refreshTokens(w)
    const arb = fc.constant(null).chain(() => requestArb(w, list)).chain(req => {
      if (req.auth === 'none') return fc.constant({ req, authorization: null as string | null })
      const account = pick(w.accounts, req.account, w.accounts[0])
      const token = req.auth === 'mercado-pago' ? account.mercadoPagoToken : req.auth === 'api-pix' && req.account % 5 !== 0 ? account.apiPixToken : account.token
      return authArb(token).map(authorization => ({ req, authorization }))
    })
    const property = fc.asyncProperty(arb, async ({ req, authorization }) => {
      const headers: Record<string, string> = { ...req.headers }
      if (authorization !== null) headers.authorization = authorization
      if (req.payload.contentType !== undefined) headers['content-type'] = req.payload.contentType
      const described = () => `${req.method} ${req.url.slice(0, 160)} headers=${JSON.stringify(headers).slice(0, 240)} body=${String(req.payload.text).slice(0, 240)}`
      const caller = req.auth !== 'none' && req.url.startsWith(`${API_PIX}/`) ? pick(w.accounts, req.account, w.accounts[0]).accountId : undefined
      const named = caller === undefined ? [] : namedRecords(w, req.url)
      let res
      try {
        res = await w.app.inject({ method: req.method as 'GET', url: req.url, headers, payload: req.payload.text })
      } catch (err) {
        problem(`inject threw ${(err as Error).message}: ${described()}`)
        return
      }
      if (caller !== undefined) {
        report.isolationChecked++
        for (const p of isolationProblems(w, req.url, caller, named, res)) problem(`isolation: ${p} <- ${described()}`)
      }
      // A clock move may have expired the tokens: the rest of the batch gets new ones.
      if (req.url.startsWith('/__sandbox/clock/') && res.statusCode === 200) await refreshTokens(w)
      report.requests++
      report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1
      if (req.url.startsWith(`${API_PIX}/`)) report.apiPixByStatus[res.statusCode] = (report.apiPixByStatus[res.statusCode] ?? 0) + 1
      const applied = String(res.headers['x-sandbox-scenario-applied'] ?? '').split(',').map(s => s.split(';')[0])
      if (res.statusCode >= 500) {
        const requested = res.statusCode === 500 ? applied.some(n => SERVER_ERROR_SCENARIOS.has(n)) : res.statusCode === 503 && applied.includes('SERVICE_UNAVAILABLE')
        if (requested) report.requestedServerErrors++
        else {
          report.serverErrors++
          problem(`${res.statusCode} ${res.body.slice(0, 200)} <- ${described()}`)
        }
      } else if (res.statusCode >= 400) {
        // The target as the server got it: the injection resolves dot segments (`/qr/v2/%2e%2e` is `/qr/`).
        const shape = shapeProblem(SHAPE_OF[errorShapeOf(res.raw.req.url ?? req.url, w.app.sandbox.config.apiPixBasePath)], res.statusCode, res.body)
        if (shape) problem(`${res.statusCode} not in its family's shape (${shape}) <- ${described()}`)
      } else if (res.statusCode < 200 || res.statusCode >= 300) {
        problem(`unexpected ${res.statusCode} <- ${described()}`)
      } else if (res.headers['content-type']?.toString().startsWith('application/json')) {
        harvest(w.pools, req.url, JSON.parse(res.body), req.auth === 'none' ? undefined : pick(w.accounts, req.account, w.accounts[0]).accountId)
      }
      if (report.requests % batch === 0) await checkBatch(w, report, problem, opts)
    })
    await fc.assert(property, { numRuns: opts.requests, seed: opts.seed, endOnFailure: true })
    if (report.requests % batch !== 0) await checkBatch(w, report, problem, opts)
  } finally {
    await w.app.close()
  }
  report.ms = Date.now() - started
  return report
}

async function checkBatch (w: World, report: FuzzReport, problem: (text: string) => void, opts: FuzzOptions): Promise<void> {
  report.batches++
  const res = await w.app.inject({ method: 'GET', url: '/__sandbox/accounts' })
  if (res.statusCode !== 200) problem(`GET /__sandbox/accounts after batch ${report.batches}: ${res.statusCode} ${res.body.slice(0, 200)}`)
  else for (const a of res.json().accounts) for (const p of ledgerProblems(a)) problem(`after batch ${report.batches}: ${p}`)
  if (({} as Record<string, unknown>).polluted !== undefined) problem('Object.prototype was polluted')
  for (const duplicate of txidDuplicates(w)) {
    if (w.duplicatesSeen.has(duplicate)) continue
    w.duplicatesSeen.add(duplicate)
    report.txidDuplicateCount++
    if (report.txidDuplicates.length < 50) report.txidDuplicates.push(`after batch ${report.batches}: ${duplicate}`)
  }
  await refreshTokens(w)
  opts.progress?.(report.requests)
}

// ---- isolation and txid uniqueness -----------------------------------------------------------------

/** A record of API Pix a path names, as the store holds it (`key` names it across the request). */
interface Named { key: string, accountId: number, json: string }

const own = <T>(records: Readonly<Record<string, T>>, id: string): T | undefined => Object.hasOwn(records, id) ? records[id] : undefined

/**
 * The records of every account a path under API Pix's base path names by its id: `/cob/{txid}` the cobs
 * with that txid, `/pix/{e2eid}/...` the transactions with that end-to-end id, `/webhook/{chave}` the
 * webhooks of that key, and so on. A txid is unique per receiver, not across them: several accounts
 * may each hold one.
 */
function namedRecords (w: World, url: string): Named[] {
  let segments: string[]
  try {
    segments = new URL(url, 'http://fuzz').pathname.slice(API_PIX.length + 1).split('/').map(decodeURIComponent)
  } catch {
    return []
  }
  const [resource, id] = segments
  if (id === undefined || id === '') return []
  const data = w.app.sandbox.store.data
  const of = (key: string, record: { accountId: number } | undefined): Named[] => record === undefined ? [] : [{ key, accountId: record.accountId, json: JSON.stringify(record) }]
  const txs = Object.values(data.transactions)
  switch (resource) {
    case 'cob':
    case 'cobv': {
      const kind = resource === 'cob' ? 'COB' : 'COBV'
      return txs.filter(tx => tx.kind === kind && (tx.data as { txid?: unknown }).txid === id).flatMap(tx => of(`tx:${tx.id}`, tx))
    }
    case 'cobr': return Object.values(data.cobrs).filter(c => c.txid === id).flatMap(c => of(`cobr:${c.id}`, c))
    case 'rec': return of(`rec:${id}`, own(data.recurrences, id))
    case 'solicrec': return of(`solicrec:${id}`, own(data.solicRecs, id))
    case 'loc': return of(`loc:${id}`, own(data.locations, id))
    case 'locrec': return of(`locrec:${id}`, own(data.recLocations, id))
    case 'pix': return txs.filter(tx => tx.endToEndId === id).flatMap(tx => of(`tx:${tx.id}`, tx))
    case 'webhook': return Object.values(data.apiPixWebhooks).filter(x => x.chave !== undefined && x.chave.toLowerCase() === id.toLowerCase()).flatMap(x => of(`apiPixWebhook:${x.id}`, x))
    default: return []
  }
}

/** The accounts that hold an id an answer shows: a txid of a charge (or of a received PIX), an idRec, an idSolicRec, an end-to-end id. */
function holdersOf (w: World, key: string, value: string): number[] {
  const data = w.app.sandbox.store.data
  switch (key) {
    case 'txid': return [
      ...Object.values(data.transactions).filter(tx => (tx.data as { txid?: unknown }).txid === value).map(tx => tx.accountId),
      ...Object.values(data.cobrs).filter(c => c.txid === value).map(c => c.accountId),
    ]
    case 'idRec': return [own(data.recurrences, value)?.accountId].filter((a): a is number => a !== undefined)
    case 'idSolicRec': return [own(data.solicRecs, value)?.accountId].filter((a): a is number => a !== undefined)
    case 'endToEndId': return Object.values(data.transactions).filter(tx => tx.endToEndId === value).map(tx => tx.accountId)
    case 'chave': return Object.values(data.apiPixWebhooks).filter(x => x.chave === value).map(x => x.accountId)
    default: return []
  }
}

/**
 * The ids an answer shows, wherever they are; the keys of webhooks too in a webhook's answer (elsewhere
 * a `chave` is the key a charge is paid to, anyone's).
 */
function shownIds (value: unknown, webhooks: boolean, out: Array<[string, string]> = [], depth = 0): Array<[string, string]> {
  if (depth > 6 || value === null || typeof value !== 'object') return out
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && (key === 'txid' || key === 'idRec' || key === 'idSolicRec' || key === 'endToEndId' || (webhooks && key === 'chave'))) out.push([key, v])
    else shownIds(v, webhooks, out, depth + 1)
  }
  return out
}

/** What a request of `caller`'s token under API Pix's base path did beyond its account (`before`: what its path named before it). */
function isolationProblems (w: World, url: string, caller: number, before: Named[], res: { statusCode: number, body: string, headers: Record<string, unknown> }): string[] {
  const problems: string[] = []
  const after = namedRecords(w, url)
  const now = new Map(after.map(n => [n.key, n]))
  for (const b of before) {
    if (b.accountId === caller) continue
    const a = now.get(b.key)
    if (a === undefined) problems.push(`account ${caller}'s token removed account ${b.accountId}'s ${b.key}`)
    else if (a.json !== b.json) problems.push(`account ${caller}'s token changed account ${b.accountId}'s ${b.key}`)
  }
  const earlier = new Set(before.map(b => b.key))
  for (const a of after) if (a.accountId !== caller && !earlier.has(a.key)) problems.push(`account ${caller}'s token made ${a.key} of account ${a.accountId}`)
  if (res.statusCode >= 200 && res.statusCode < 300 && (before.length > 0 || after.length > 0) && ![...before, ...after].some(n => n.accountId === caller)) {
    problems.push(`answered ${res.statusCode} about a resource only account(s) ${[...new Set([...before, ...after].map(n => n.accountId))].join(', ')} hold`)
  }
  if (res.statusCode >= 200 && res.statusCode < 300 && res.body !== '' && String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    for (const [key, value] of shownIds(JSON.parse(res.body), url.startsWith(`${API_PIX}/webhook`))) {
      const holders = holdersOf(w, key, value)
      if (holders.length > 0 && !holders.includes(caller)) problems.push(`the answer shows ${key} ${value} of account ${holders[0]}`)
    }
  }
  return problems
}

/** Each txid a receiver holds twice across its charges (cob, cobv, cash-in transactions and cobr records). */
function txidDuplicates (w: World): string[] {
  const data = w.app.sandbox.store.data
  const kinds = new Map<string, string[]>()
  const add = (accountId: number, txid: unknown, kind: string): void => {
    if (typeof txid !== 'string') return
    const key = `${accountId}:${txid}`
    kinds.set(key, [...(kinds.get(key) ?? []), kind])
  }
  for (const tx of Object.values(data.transactions)) if (tx.kind === 'COB' || tx.kind === 'COBV' || tx.kind === 'CASH_IN') add(tx.accountId, (tx.data as { txid?: unknown }).txid, tx.kind.toLowerCase())
  for (const c of Object.values(data.cobrs)) add(c.accountId, c.txid, 'cobr')
  return [...kinds].filter(([, k]) => k.length > 1).map(([key, k]) => `account ${key.slice(0, key.indexOf(':'))} holds txid ${key.slice(key.indexOf(':') + 1)} as ${k.join(' and ')}`)
}
