import { parseAmount, parseDecimalString } from '../domain/money.js'
import type { CobR, Delivery, Recurrence, Transaction } from '../store/state.js'
import type { JournalEntry } from '../journal/journal.js'
import { isToolToken } from '../auth/tokens.js'
import { OAUTH_TOKEN_PATH } from '../domain/scopes.js'

/**
 * What the integration report reads: what an integration did, as facts. The checks (checks.ts) see
 * only this; `requestFact` draws them from the request journal (server/journal/), so the checks do
 * not depend on its shape.
 */

/** The API a request went to: a dialect's name (server/dialects/: `gateway`, `api-pix`). */
export type Dialect = string

/**
 * A dialect's part of the report (server/dialects/types.ts): how it is named, and the route of a
 * request of its as the report names it (API Pix's without its base path), with how much of the path
 * it recognises: the longest claim wins (API Pix's base `/api/v2` over the gateway's `/api/`).
 */
export interface GradedDialect {
  readonly name: Dialect
  readonly title: string
  grades (method: string, route: string): { route: string, claim: number } | undefined
  /** The fields of its own money requests, by `METHOD route` (its ReportPart's `fields`); the built-in dialects' are EXTRACTORS below. */
  readonly fields?: Readonly<Record<string, FieldsOf>>
}

/** How the report reads a request's fields (its own id, its idempotency key, its amount, where its money goes). */
export type FieldsOf = (r: RequestSource) => RequestFields

/** A list answer of API Pix (`parametros.paginacao`): which list it is, the page it answered and how many there are. */
export interface ListPage {
  /** The route and its filters (inicio, fim, status...), paging aside: the same key is the same list. */
  list: string
  page: number
  pages: number
}

export interface RequestFact {
  /** The request id (`x-request-id`). */
  id: string
  /** Sandbox time of the answer, in ms. */
  at: number
  method: string
  /** The API it went to; `control` for the control plane's transaction query. */
  family: Dialect | 'control'
  /**
   * The route as declared (`/pix/:e2eid/devolucao/:id`), or the path when no route matched; API Pix's
   * without its base path (`/cob/:txid`), so an operation both dialects serve has one name.
   */
  route: string
  /** null: no answer was sent (the connection was closed first; the journal says 0). */
  status: number | null
  /** The account of the token, of the credentials, or of the transaction a control-plane query names. */
  accountId: number | null
  /** The id (jti) of the token it carried, or of the token it was issued. */
  tokenId: string | null
  /** Scenario names applied to the request. */
  scenarios: string[]
  /** The error's code (business code, `HTTP_ERROR`, ...), also where the family's shape does not show it. */
  errorCode: string | null
  /** The caller's own id: externalId, a cob's txid (also of a read of one), a recurring charge's (of its creation and its retries), a devolução's id. */
  externalId: string | null
  /** `x-idempotency-key` of the directory transfer. */
  idempotencyKey: string | null
  amountCents: number | null
  /** Where the money goes: a pay-out's key or QR code; for a refund, the payment it refunds. */
  target: string | null
  /**
   * A 401 for a token whose signature is good but whose 1800 s have run out; not for a token the control
   * plane issued to a tool (the CLI's `token`), whose renewal is the developer's, not the integration's.
   */
  expiredToken: boolean
  /** A token of POST /oauth/token: the scopes it was issued for, sorted (null for the gateway's token, or without bodies). */
  scope: string | null
  /** API Pix's problem details: each of its `violacoes`, as `propriedade: razao`. */
  violations: string[]
  /** A charge's creation: its body with its keys in order, to recognise the same charge sent again (null without bodies). */
  sent: string | null
  /** A page of an API Pix list. */
  listPage: ListPage | null
  /** A recurring charge's creation: the recurrence its body names (`idRec`; null without bodies). */
  idRec: string | null
}

/** Everything the checks of one account's report read. Requests oldest first. */
export interface IntegrationFacts {
  accountId: number
  requests: readonly RequestFact[]
  deliveries: readonly Delivery[]
  transactions: readonly Transaction[]
  /** Pix Automático's recurrences and recurring charges (with their attempts) of the account. */
  recurrences: readonly Recurrence[]
  cobrs: readonly CobR[]
}

/** A request as the journal keeps it, before the report's fields are drawn from it. */
export interface RequestSource {
  route: string
  params: unknown
  headers: Readonly<Record<string, string | string[] | undefined>>
  body: unknown
}

/** The report's fields of a request: its own id, its amount, where its money goes. */
export type RequestFields = Pick<RequestFact, 'externalId' | 'idempotencyKey' | 'amountCents' | 'target'>

/** A value at a path of an object, or undefined; what a dialect's `fields` read requests with, as EXTRACTORS do. */
export const field = (value: unknown, ...path: string[]): unknown => {
  let v = value
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined
  return v
}
export const text = (v: unknown): string | null => typeof v === 'string' && v.length > 0 ? v : null
export const cents = (v: unknown): number | null => {
  if (typeof v === 'string') {
    const parsed = parseDecimalString(v, 'up-to-2')
    return parsed.ok ? parsed.cents : null
  }
  const parsed = parseAmount(v)
  return parsed.ok ? parsed.cents : null
}

export const NO_FIELDS: RequestFields = { externalId: null, idempotencyKey: null, amountCents: null, target: null }

/** A charge created under the caller's txid (cob, cobv): the txid is its own id. */
const chargeOfTxid = (r: RequestSource): RequestFields => ({ externalId: text(field(r.params, 'txid')), idempotencyKey: null, amountCents: cents(field(r.body, 'valor', 'original')), target: null })
const readOfTxid = (r: RequestSource): RequestFields => ({ ...NO_FIELDS, externalId: text(field(r.params, 'txid')) })

/** Which fields each money route carries, and where (docs/gateway.md §2.3 to 2.9; API Pix's cob as the gateway's, docs/api-pix.md). */
const EXTRACTORS: Record<string, (r: RequestSource) => RequestFields> = {
  'POST /api/pix/cash-out': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'value')), target: text(field(r.body, 'details', 'key')) }),
  'POST /api/pix/cash-out-qrcode': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'value')), target: text(field(r.body, 'qrCode')) }),
  'POST /dict/pix': r => ({ externalId: null, idempotencyKey: text(r.headers['x-idempotency-key']), amountCents: cents(field(r.body, 'payment', 'amount')), target: text(field(r.body, 'pixKey')) }),
  'POST /api/pix/cash-in': r => ({ externalId: text(field(r.body, 'transaction', 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'transaction', 'value')), target: null }),
  'PUT /cob/:txid': chargeOfTxid,
  'GET /cob/:txid': readOfTxid,
  'PUT /cobv/:txid': chargeOfTxid,
  'GET /cobv/:txid': readOfTxid,
  'POST /cob': r => ({ externalId: null, idempotencyKey: null, amountCents: cents(field(r.body, 'valor', 'original')), target: null }),
  'POST /api/pix/refund-in/:id': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'refundValue')), target: text(field(r.params, 'id')) }),
  'PUT /cobr/:txid': chargeOfTxid,
  'POST /cobr': r => ({ ...NO_FIELDS, amountCents: cents(field(r.body, 'valor', 'original')) }),
  'POST /cobr/:txid/retentativa/:data': readOfTxid,
  'PUT /pix/:e2eid/devolucao/:id': r => ({ externalId: text(field(r.params, 'id')), idempotencyKey: null, amountCents: cents(field(r.body, 'valor')), target: text(field(r.params, 'e2eid')) }),
}

/** The fields of a request: its dialect's own reading of it where it has one, else the built-in one. */
export function requestFields (method: string, r: RequestSource, own?: Readonly<Record<string, FieldsOf>>): RequestFields {
  const operation = `${method} ${r.route}`
  return (own?.[operation] ?? EXTRACTORS[operation])?.(r) ?? NO_FIELDS
}

export const PAYOUT_ROUTES: ReadonlySet<string> = new Set(['/api/pix/cash-out', '/api/pix/cash-out-qrcode', '/dict/pix'])
export const REFUND_ROUTES: ReadonlySet<string> = new Set(['/api/pix/refund-in/:id', '/pix/:e2eid/devolucao/:id'])
/**
 * The requests that create a charge, as `METHOD route` (a revision, PATCH /cob/:txid, creates none;
 * PUT /cobv/:txid of an ATIVA cobv revises it, which the report cannot tell from a creation).
 */
export const CHARGE_CREATIONS: ReadonlySet<string> = new Set(['POST /api/pix/cash-in', 'PUT /cob/:txid', 'POST /cob', 'PUT /cobv/:txid'])
/** The creations of a cob (on either dialect: the caller's txid, or the sandbox's) and of API Pix's cobv (the caller's txid). */
export const COB_CREATIONS: ReadonlySet<string> = new Set(['PUT /cob/:txid', 'POST /cob', 'PUT /cobv/:txid'])
/** The creations of a recurring charge of Pix Automático (the caller's txid, or the sandbox's). */
export const COBR_CREATIONS: ReadonlySet<string> = new Set(['PUT /cobr/:txid', 'POST /cobr'])
/** A retry of a recurring charge's debit. */
export const COBR_RETRY = 'POST /cobr/:txid/retentativa/:data'
/** The tokens an integration asks for: the gateway's (201), API Pix's OAuth (200). */
export const TOKEN_ROUTES: ReadonlySet<string> = new Set(['/api/auth/token', OAUTH_TOKEN_PATH])

/** Where a pay-out's money went, comparable with RequestFact.target of the request that made it. */
export function payoutTarget (tx: Transaction): string | null {
  if (tx.kind === 'CASH_OUT_QRCODE') return text(tx.data.qrCode)
  // A directory transfer keeps the key normalised (`+55...`); a request that wrote it otherwise differs.
  return tx.kind === 'CASH_OUT' || tx.kind === 'DICT_TRANSFER' ? text(tx.pixKey) : null
}

export const isPayout = (tx: Transaction): boolean => tx.kind === 'CASH_OUT' || tx.kind === 'CASH_OUT_QRCODE' || tx.kind === 'DICT_TRANSFER'

/**
 * What the report grades, and as which API: the requests each dialect grades (its routes; API Pix's
 * without its base path), and the control plane's transaction query. Not the payload locations and
 * their key, which payers' PSPs read, not the integration. Null for anything else.
 */
export function gradedAs (method: string, route: string, dialects: readonly GradedDialect[]): { family: RequestFact['family'], route: string } | null {
  if (route.startsWith('/__sandbox/')) return method === 'GET' && route.startsWith('/__sandbox/transactions') ? { family: 'control', route } : null
  let best: { family: string, route: string, claim: number } | null = null
  for (const d of dialects) {
    const graded = d.grades(method, route)
    if (graded !== undefined && (best === null || graded.claim > best.claim)) best = { family: d.name, ...graded }
  }
  return best === null ? null : { family: best.family, route: best.route }
}

/** The path parameters a route's pattern names (`/cob/:txid` and `/cob/abc` give { txid: 'abc' }). */
export function paramsOf (route: string, path: string): Record<string, string> {
  const names = route.split('/')
  const values = path.split('/')
  const out: Record<string, string> = {}
  names.forEach((name, i) => {
    if (!name.startsWith(':') || values[i] === undefined) return
    try {
      out[name.slice(1)] = decodeURIComponent(values[i])
    } catch {
      out[name.slice(1)] = values[i]
    }
  })
  return out
}

/** A value as text with every object's keys in order: two bodies that say the same give the same text. */
export function canonical (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const PAGING = new Set(['paginacao.paginaAtual', 'paginacao.itensPorPagina'])

/** An API Pix list's page, from its query and its answer's `parametros.paginacao`. */
function listPageOf (route: string, query: Record<string, unknown>, answer: unknown): ListPage | null {
  const page = field(answer, 'parametros', 'paginacao', 'paginaAtual')
  const pages = field(answer, 'parametros', 'paginacao', 'quantidadeDePaginas')
  if (typeof page !== 'number' || typeof pages !== 'number') return null
  const filters = Object.fromEntries(Object.entries(query).filter(([k]) => !PAGING.has(k)))
  return { list: `${route} ${canonical(filters)}`, page, pages }
}

/** The `violacoes` of a problem details answer, as `propriedade: razao`. */
function violationsOf (answer: unknown): string[] {
  const list = field(answer, 'violacoes')
  if (!Array.isArray(list)) return []
  return list.map(v => [text(field(v, 'propriedade')), text(field(v, 'razao'))].filter(x => x !== null).join(': '))
}

/**
 * The facts of one journal entry, or null for what the report does not grade. With
 * `--journal-bodies false` the bodies are gone: amount, destination, scopes, violacoes and pages are
 * then unknown, and the checks that compare them compare nothing.
 */
export function requestFact (e: JournalEntry, dialects: readonly GradedDialect[]): RequestFact | null {
  const as = e.route === null ? null : gradedAs(e.method, e.route, dialects)
  if (e.route === null || as === null) return null
  const route = as.route
  const operation = `${e.method} ${route}`
  const own = dialects.find(d => d.name === as.family)?.fields
  const fields = requestFields(e.method, { route, params: paramsOf(e.route, e.path), headers: { 'x-idempotency-key': e.idempotencyKey ?? undefined }, body: e.request.body }, own)
  const answer = e.response.body
  return {
    id: e.requestId,
    at: Date.parse(e.at),
    method: e.method,
    family: as.family,
    route,
    status: e.status === 0 ? null : e.status,
    accountId: e.accountId,
    tokenId: e.tokenId,
    scenarios: e.scenarios,
    errorCode: e.errorCode,
    // A 401 that still names a token: one the sandbox signed, whose time ran out.
    expiredToken: e.status === 401 && e.tokenId !== null && !isToolToken(e.tokenId),
    ...fields,
    scope: route === OAUTH_TOKEN_PATH ? text(field(answer, 'scope'))?.split(' ').sort().join(' ') ?? null : null,
    violations: as.family === 'api-pix' && e.status >= 400 ? violationsOf(answer) : [],
    sent: COB_CREATIONS.has(operation) && e.request.body !== null && e.request.body !== undefined ? canonical(e.request.body) : null,
    listPage: as.family === 'api-pix' && e.method === 'GET' && e.status === 200 ? listPageOf(route, e.query, answer) : null,
    idRec: as.family === 'api-pix' && COBR_CREATIONS.has(operation) ? text(field(e.request.body, 'idRec')) : null,
  }
}
