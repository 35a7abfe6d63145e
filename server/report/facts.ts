import { parseAmount, parseDecimalString } from '../domain/money.js'
import type { Delivery, Transaction } from '../store/state.js'
import type { JournalEntry } from '../journal/journal.js'
import { isToolToken } from '../auth/tokens.js'

/**
 * What the integration report reads: what an integration did, as facts. The checks (checks.ts) see
 * only this; `requestFact` draws them from the request journal (server/journal/), so the checks do
 * not depend on its shape.
 */
export interface RequestFact {
  /** The request id (`x-request-id`). */
  id: string
  /** Sandbox time of the answer, in ms. */
  at: number
  method: string
  /** The route as declared (`/pix/:e2eid/devolucao/:id`), or the path when no route matched. */
  route: string
  /** null: no answer was sent (the connection was closed first; the journal says 0). */
  status: number | null
  /** The account of the token, of the credentials, or of the transaction a control-plane query names. */
  accountId: number | null
  /** Scenario names applied to the request. */
  scenarios: string[]
  /** The error's code (business code, `HTTP_ERROR`, ...), also where the family's shape does not show it. */
  errorCode: string | null
  /** The caller's own id: externalId, a cob's txid, a devolução's id. */
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
}

/** Everything the checks of one account's report read. Requests oldest first. */
export interface IntegrationFacts {
  accountId: number
  requests: readonly RequestFact[]
  deliveries: readonly Delivery[]
  transactions: readonly Transaction[]
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

const field = (value: unknown, ...path: string[]): unknown => {
  let v = value
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined
  return v
}
const text = (v: unknown): string | null => typeof v === 'string' && v.length > 0 ? v : null
const cents = (v: unknown): number | null => {
  if (typeof v === 'string') {
    const parsed = parseDecimalString(v, 'up-to-2')
    return parsed.ok ? parsed.cents : null
  }
  const parsed = parseAmount(v)
  return parsed.ok ? parsed.cents : null
}

/** Which fields each money route carries, and where (docs/gateway.md §2.3 to 2.9). */
const EXTRACTORS: Record<string, (r: RequestSource) => RequestFields> = {
  'POST /api/pix/cash-out': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'value')), target: text(field(r.body, 'details', 'key')) }),
  'POST /api/pix/cash-out-qrcode': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'value')), target: text(field(r.body, 'qrCode')) }),
  'POST /dict/pix': r => ({ externalId: null, idempotencyKey: text(r.headers['x-idempotency-key']), amountCents: cents(field(r.body, 'payment', 'amount')), target: text(field(r.body, 'pixKey')) }),
  'POST /api/pix/cash-in': r => ({ externalId: text(field(r.body, 'transaction', 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'transaction', 'value')), target: null }),
  'PUT /cob/:txid': r => ({ externalId: text(field(r.params, 'txid')), idempotencyKey: null, amountCents: cents(field(r.body, 'valor', 'original')), target: null }),
  'POST /api/pix/refund-in/:id': r => ({ externalId: text(field(r.body, 'externalId')), idempotencyKey: null, amountCents: cents(field(r.body, 'refundValue')), target: text(field(r.params, 'id')) }),
  'PUT /pix/:e2eid/devolucao/:id': r => ({ externalId: text(field(r.params, 'id')), idempotencyKey: null, amountCents: cents(field(r.body, 'valor')), target: text(field(r.params, 'e2eid')) }),
}

const NO_FIELDS: RequestFields = { externalId: null, idempotencyKey: null, amountCents: null, target: null }

export function requestFields (method: string, r: RequestSource): RequestFields {
  return EXTRACTORS[`${method} ${r.route}`]?.(r) ?? NO_FIELDS
}

export const PAYOUT_ROUTES: ReadonlySet<string> = new Set(['/api/pix/cash-out', '/api/pix/cash-out-qrcode', '/dict/pix'])
export const REFUND_ROUTES: ReadonlySet<string> = new Set(['/api/pix/refund-in/:id', '/pix/:e2eid/devolucao/:id'])
export const CHARGE_ROUTES: ReadonlySet<string> = new Set(['/api/pix/cash-in', '/cob/:txid'])
export const TOKEN_ROUTE = '/api/auth/token'

/** Where a pay-out's money went, comparable with RequestFact.target of the request that made it. */
export function payoutTarget (tx: Transaction): string | null {
  if (tx.kind === 'CASH_OUT_QRCODE') return text(tx.data.qrCode)
  // A directory transfer keeps the key normalised (`+55...`); a request that wrote it otherwise differs.
  return tx.kind === 'CASH_OUT' || tx.kind === 'DICT_TRANSFER' ? text(tx.pixKey) : null
}

export const isPayout = (tx: Transaction): boolean => tx.kind === 'CASH_OUT' || tx.kind === 'CASH_OUT_QRCODE' || tx.kind === 'DICT_TRANSFER'

/** What the report grades: the gateway's two families (docs/gateway.md §4), and the control plane's transaction query. */
export function graded (method: string, route: string): boolean {
  if (route.startsWith('/__sandbox/')) return method === 'GET' && route.startsWith('/__sandbox/transactions')
  return route.startsWith('/api/') || route === '/balance' || route === '/accounts/balances' || route === '/dict/pix' ||
    route.startsWith('/cob/') || route.startsWith('/pix/')
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

/**
 * The facts of one journal entry, or null for what the report does not grade. With
 * `--journal-bodies false` the body is gone: amount and destination are then unknown (null), and the
 * checks that compare them compare nothing.
 */
export function requestFact (e: JournalEntry): RequestFact | null {
  if (e.route === null || !graded(e.method, e.route)) return null
  const fields = requestFields(e.method, { route: e.route, params: paramsOf(e.route, e.path), headers: { 'x-idempotency-key': e.idempotencyKey ?? undefined }, body: e.request.body })
  return {
    id: e.requestId,
    at: Date.parse(e.at),
    method: e.method,
    route: e.route,
    status: e.status === 0 ? null : e.status,
    accountId: e.accountId,
    scenarios: e.scenarios,
    errorCode: e.errorCode,
    // A 401 that still names a token: one the sandbox signed, whose time ran out.
    expiredToken: e.status === 401 && e.tokenId !== null && !isToolToken(e.tokenId),
    ...fields,
  }
}
