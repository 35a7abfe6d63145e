import { parseInstant } from '../../domain/instant.js'
import type { Transaction } from '../../store/state.js'
import { CHARGE_STAGES, chargeInstantOf, type ChargeInstant, type ChargeStage } from '../../services/charge-stages.js'
import type { CodeChargesOf } from '../../services/charges.js'
import { badRequest } from './errors.js'
import { paymentOf, statusOf } from './views.js'

/**
 * GET /v1/payments/search (docs/mercado-pago.md, Search): exact filters, a date range (`NOW-1DAYS`
 * forms on the sandbox clock), sort and criteria, limit (clamped to 50) and offset (at most 10000).
 * Over the account's own records only (the store's index by account).
 */

const SORTS = ['date_created', 'date_last_updated', 'date_approved', 'id', 'money_release_date'] as const
const RANGES = ['date_created', 'date_last_updated', 'date_approved', 'money_release_date'] as const
const UNITS: Record<string, { ms: number, max: number }> = {
  MINUTE: { ms: 60_000, max: 60 },
  HOUR: { ms: 3_600_000, max: 24 },
  DAY: { ms: 86_400_000, max: 365 },
  WEEK: { ms: 7 * 86_400_000, max: 8 },
  MONTH: { ms: 30 * 86_400_000, max: 12 },
}
const DAY_MS = 86_400_000
export const MAX_LIMIT = 50
const MAX_OFFSET = 10_000
const dateRefusal = () => badRequest(1001, 'Date format must be yyyy-MM-dd\'T\'HH:mm:ss.SSSZ.')

/** `NOW`, `NOW-<n><UNIT>` (singular or plural, any case) or an ISO 8601 instant. */
export function readSearchDate (value: string, now: number): number {
  const relative = /^NOW(?:-(\d{1,4})(MINUTE|HOUR|DAY|WEEK|MONTH)S?)?$/i.exec(value.trim())
  if (relative !== null) {
    if (relative[1] === undefined) return now
    const n = Number(relative[1])
    const unit = UNITS[relative[2].toUpperCase()]
    if (n < 1 || n > unit.max) throw dateRefusal()
    return now - n * unit.ms
  }
  const at = parseInstant(value)
  if (at === null) throw dateRefusal()
  return at
}

export interface SearchQuery { [name: string]: string | undefined }
export interface Found { total: number, limit: number, offset: number, results: Transaction[] }

/** The core's instant (charge-stages.ts) each date of a payment is (views.ts): approval and release are its payment. */
const INSTANT_OF: Readonly<Record<typeof RANGES[number], ChargeInstant | 'made'>> = {
  date_created: 'made',
  date_last_updated: 'updated',
  date_approved: 'paid',
  money_release_date: 'paid',
}

/** The instant a payment's field holds (undefined: it has none). */
function instantOf (tx: Transaction, field: typeof SORTS[number]): number | undefined {
  return field === 'id' ? paymentOf(tx)!.paymentId : chargeInstantOf(tx, INSTANT_OF[field])
}

/** The filters a client may give, each read from a record and its refunds' status. */
const FILTERS: Record<string, (tx: Transaction, refunds: readonly Transaction[]) => string | undefined> = {
  external_reference: tx => paymentOf(tx)!.externalReference,
  status: (tx, refunds) => statusOf(tx, refunds).status,
  status_detail: (tx, refunds) => statusOf(tx, refunds).detail,
  payment_method_id: () => 'pix',
  payment_type_id: () => 'bank_transfer',
  operation_type: () => 'regular_payment',
  processing_mode: () => 'aggregator',
  installments: () => '1',
  'payer.id': tx => paymentOf(tx)!.payer.id,
  'payer.email': tx => paymentOf(tx)!.payer.email,
  id: tx => String(paymentOf(tx)!.paymentId),
}

/** Where a search reads an account's payments (the charges' lists of them, in the order made). */
export interface PaymentSource {
  /** The account's payments, or those of one external_reference or payer (the first given), oldest first. */
  all (of: CodeChargesOf): readonly Transaction[]
  /** How many of those were created within the range, and a page of them, the newest first when asked: undefined when it cannot be read so. */
  page (externalReference: string | undefined, created: { from: number, to: number }, offset: number, limit: number, newestFirst: boolean): { total: number, results: Transaction[] } | undefined
  /** The same for the payments in any of the stages (those a status and a status_detail both cover): undefined when it cannot be read so. */
  pageIn (stages: readonly ChargeStage[], externalReference: string | undefined, created: { from: number, to: number }, offset: number, limit: number, newestFirst: boolean): { total: number, results: Transaction[] } | undefined
  /** The same for the payments that reached another instant within the range, in its order: what costs the page. */
  pageBy (instant: ChargeInstant, range: { from: number, to: number }, offset: number, limit: number, newestFirst: boolean): { total: number, results: Transaction[] }
  /** The account's payments made, last changed or paid within the range, in that order: what costs their number. */
  within (instant: ChargeInstant | 'made', range: { from: number, to: number }): readonly Transaction[]
  /** A payment's refunds. */
  refundsOf (tx: Transaction): readonly Transaction[]
}

/**
 * The stages of a charge (charge-stages.ts) each status and each status_detail covers, as `statusOf`
 * (views.ts) maps them; a value no payment of the sandbox takes covers none.
 */
const STAGES_OF: Readonly<Record<string, readonly ChargeStage[]>> = {
  pending: ['open'],
  approved: ['paid', 'partlyRefunded'],
  refunded: ['refunded'],
  cancelled: ['expired', 'cancelled'],
  rejected: ['failed'],
}
const STAGES_OF_DETAIL: Readonly<Record<string, readonly ChargeStage[]>> = {
  pending_waiting_transfer: ['open'],
  accredited: ['paid'],
  partially_refunded: ['partlyRefunded'],
  refunded: ['refunded'],
  expired: ['expired'],
  by_collector: ['cancelled'],
  rejected_by_bank: ['failed'],
}
const stagesIn = (table: Readonly<Record<string, readonly ChargeStage[]>>, value: string | undefined): readonly ChargeStage[] =>
  value === undefined ? CHARGE_STAGES : Object.hasOwn(table, value) ? table[value] : []

/**
 * The page of an account's payments a query asks for. Created within a range and sorted by creation
 * or id (the order made), by external_reference or not, by status and status_detail or not, it is
 * read from the lists as a page (the default query: the newest 30 of the last 3 months; a status or a
 * status_detail reads the lists of the stages both cover). Last updated, approved or released within
 * a range and sorted by that same date, with no filter, it is a page of the account's payments in
 * that date's order. Any other filter or sort reads the payments of the external_reference, else of
 * the payer, else the account's whose range date is within the range (a binary search of that
 * date's list), and sorts what matched.
 */
export function searchPayments (source: PaymentSource, query: SearchQuery, now: number, collectorId: number): Found {
  const sort = query.sort ?? 'date_created'
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest(1003, 'Invalid sort value.')
  const criteria = (query.criteria ?? 'desc').toLowerCase()
  if (criteria !== 'asc' && criteria !== 'desc') throw badRequest(1004, 'Invalid criteria value.')
  const range = query.range ?? 'date_created'
  if (!(RANGES as readonly string[]).includes(range)) throw badRequest(1001, 'Date format must be yyyy-MM-dd\'T\'HH:mm:ss.SSSZ.')
  const begin = readSearchDate(query.begin_date ?? 'NOW-3MONTHS', now)
  const end = readSearchDate(query.end_date ?? 'NOW', now)
  if (end - begin > 365 * DAY_MS) throw badRequest(9062, 'Invalid range interval - Must be less than 365 days.')
  const limitAsked = query.limit === undefined ? 30 : Number(query.limit)
  const offset = query.offset === undefined ? 0 : Number(query.offset)
  if (!Number.isSafeInteger(limitAsked) || !Number.isSafeInteger(offset) || offset < 0) throw badRequest(1000, 'Number of rows exceeded the limits.')
  if (offset > MAX_OFFSET) throw badRequest(1000, 'Number of rows exceeded the limits.')
  const limit = Math.min(MAX_LIMIT, Math.max(1, limitAsked))
  if (query['collector.id'] !== undefined && query['collector.id'] !== String(collectorId)) return { total: 0, limit, offset, results: [] }
  const filters = Object.entries(FILTERS).filter(([name]) => query[name] !== undefined)
  const reference = query.external_reference
  if (range === 'date_created' && (sort === 'date_created' || sort === 'id') && filters.every(([name]) => name === 'external_reference')) {
    const page = source.page(reference, { from: begin, to: end }, offset, limit, criteria === 'desc')
    if (page !== undefined) return { total: page.total, limit, offset, results: page.results }
  }
  const byStatus = query.status !== undefined || query.status_detail !== undefined
  if (byStatus && range === 'date_created' && (sort === 'date_created' || sort === 'id') && filters.every(([name]) => name === 'external_reference' || name === 'status' || name === 'status_detail')) {
    const detail = stagesIn(STAGES_OF_DETAIL, query.status_detail)
    const stages = stagesIn(STAGES_OF, query.status).filter(stage => detail.includes(stage))
    const page = source.pageIn(stages, reference, { from: begin, to: end }, offset, limit, criteria === 'desc')
    if (page !== undefined) return { total: page.total, limit, offset, results: page.results }
  }
  const field = sort as typeof SORTS[number]
  const instant = INSTANT_OF[range as typeof RANGES[number]]
  if (instant !== 'made' && field !== 'id' && INSTANT_OF[field] === instant && filters.length === 0) {
    const page = source.pageBy(instant, { from: begin, to: end }, offset, limit, criteria === 'desc')
    return { total: page.total, limit, offset, results: page.results }
  }
  const of = { externalReference: reference, payerId: query['payer.id'], payerEmail: query['payer.email'] }
  // The payments of the reference or the payer named, else those of the range's list within it.
  const candidates = Object.values(of).some(v => v !== undefined) ? source.all(of) : source.within(instant, { from: begin, to: end })
  const matched = candidates.filter(tx => {
    const at = instantOf(tx, range as typeof SORTS[number])
    if (at === undefined || at < begin || at > end) return false
    if (filters.length === 0) return true
    const refunds = source.refundsOf(tx)
    return filters.every(([name, read]) => read(tx, refunds) === query[name])
  })
  const sign = criteria === 'asc' ? 1 : -1
  matched.sort((a, b) => sign * (((instantOf(a, field) ?? -Infinity) - (instantOf(b, field) ?? -Infinity)) || (paymentOf(a)!.paymentId - paymentOf(b)!.paymentId)))
  return { total: matched.length, limit, offset, results: matched.slice(offset, offset + limit) }
}
