import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens.js'
import { saoPauloTime } from '../domain/calendar.js'
import { cobrAfterAttempt, type TentativaResultado } from '../domain/cobr.js'
import type { RecStatus } from '../domain/rec.js'
import { recNextDueDate } from '../domain/rec-schedule.js'
import type { CobR, Delivery, DeliveryAttempt, Recurrence, Transaction } from '../store/state.js'
import {
  CHARGE_CREATIONS, COB_CREATIONS, COBR_CREATIONS, COBR_RETRY, isPayout, PAYOUT_ROUTES, payoutTarget, REFUND_ROUTES, TOKEN_ROUTES,
  type Dialect, type IntegrationFacts, type RequestFact,
} from './facts.js'

/**
 * The catalogue of the integration report: what a PSP's homologation checks, as data. Each check names
 * the section of docs/gateway.md or docs/api-pix.md it comes from and the dialects it grades, says in
 * words when it passes, fails or is not exercised (the docs table is generated from these words), and
 * grades an account's facts.
 */
export type CheckStatus = 'passed' | 'failed' | 'not_exercised' | 'not_applicable'

/** Why a check failed, with the ids to look up: requests (`x-request-id`), deliveries, transactions. */
export interface Evidence {
  note: string
  requestIds: string[]
  deliveryIds: string[]
  transactionIds: string[]
}

export interface CheckResult {
  status: CheckStatus
  summary: string
  evidence: Evidence[]
}

export interface CheckDefinition {
  id: string
  title: string
  /** The section it comes from as the report shows it (`gateway 5 item 5`, `api-pix Scopes`). */
  section: string
  /** The page of docs/ that section is in. */
  page: 'gateway.md' | 'api-pix.md'
  /** Its heading's anchor in that page. */
  anchor: string
  /**
   * The APIs whose use it grades: a check not exercised by an integration that made no request to any
   * of them does not apply to it (an integration of API Pix alone makes no pay-out of the gateway).
   */
  dialects: readonly Dialect[]
  passes: string
  fails: string
  /** What to do so the integration meets the check at all (shown while it is not exercised). */
  exercise: string
  /** Never `not_applicable`: the report decides that from the dialects the integration used. */
  evaluate (facts: IntegrationFacts): CheckResult
}

/** A failed check lists at most this many pieces of evidence, then says how many more there were. */
export const MAX_EVIDENCE = 10

/** How long before expiry a new token is a renewal rather than a token fetched too early (docs/gateway.md §5 item 5). */
export const RENEWAL_WINDOW_SECONDS = 300

const evidence = (note: string, ids: Partial<Omit<Evidence, 'note'>>): Evidence =>
  ({ note, requestIds: ids.requestIds ?? [], deliveryIds: ids.deliveryIds ?? [], transactionIds: ids.transactionIds ?? [] })

const passed = (summary: string): CheckResult => ({ status: 'passed', summary, evidence: [] })
const notExercised = (summary: string): CheckResult => ({ status: 'not_exercised', summary, evidence: [] })
function failed (summary: string, found: Evidence[]): CheckResult {
  const shown = found.slice(0, MAX_EVIDENCE)
  if (found.length > MAX_EVIDENCE) shown.push(evidence(`and ${found.length - MAX_EVIDENCE} more`, {}))
  return { status: 'failed', summary, evidence: shown }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
const answered = (r: RequestFact): string => r.status === null ? 'no answer' : `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`
/** What became of a request, as a sentence's verb: `answered 500 INTERNAL_ERROR`, `got no answer`. */
const outcome = (r: RequestFact): string => r.status === null ? 'got no answer' : `answered ${answered(r)}`
const BOTH: readonly Dialect[] = ['gateway', 'api-pix']
/** How the report and its docs name each dialect. */
export const DIALECT_NAMES: Record<Dialect, string> = { gateway: 'gateway', 'api-pix': 'API Pix' }
/** A token issued: the gateway's (201) or API Pix's OAuth (200). */
const isToken = (r: RequestFact): boolean => TOKEN_ROUTES.has(r.route) && r.status !== null && r.status < 300
const tokensOf = (f: IntegrationFacts): RequestFact[] => f.requests.filter(isToken)
/** Which token a request asks for: its endpoint, and for API Pix's the scopes (another scope's token is not a renewal). */
const grantOf = (r: RequestFact): string => `${r.route} ${r.scope ?? ''}`
/** Requests a token let through (a 401 did not), to either dialect. */
const authenticated = (f: IntegrationFacts): RequestFact[] =>
  f.requests.filter(r => r.family !== 'control' && !TOKEN_ROUTES.has(r.route) && r.accountId === f.accountId && r.status !== 401 && !r.expiredToken)
const lifetimeMs = TOKEN_LIFETIME_SECONDS * 1000
/** `PUT /cob/:txid` as the report names it: API Pix's with the word, since the root family has the same route. */
const operationOf = (r: RequestFact): string => `${r.family === 'api-pix' ? 'API Pix ' : ''}${r.method} ${r.route}`

// ---- authentication (docs/gateway.md §5) ------------------------------------------------------------

const tokenReuse: CheckDefinition = {
  id: 'token-reused',
  title: 'A token is reused until it nears expiry, not fetched per request',
  section: 'gateway 5 item 5',
  page: 'gateway.md',
  anchor: '#5-authentication',
  dialects: BOTH,
  passes: `every new token (of POST /api/auth/token, or of POST /oauth/token for the same scopes) was requested when the previous one had at most ${RENEWAL_WINDOW_SECONDS / 60} minutes of its ${TOKEN_LIFETIME_SECONDS / 60} left`,
  fails: `a token was requested while the previous one of the same endpoint and scopes had more than ${RENEWAL_WINDOW_SECONDS / 60} minutes left (the evidence lists those token requests)`,
  exercise: 'get a token and make at least two authenticated requests',
  evaluate (f) {
    const tokens = tokensOf(f)
    const calls = authenticated(f)
    if (tokens.length === 0 || calls.length < 2) return notExercised(`${plural(tokens.length, 'token')} and ${plural(calls.length, 'authenticated request')}; to exercise it, ${this.exercise}`)
    const previous = (t: RequestFact): RequestFact | undefined => tokens.slice(0, tokens.indexOf(t)).reverse().find(p => grantOf(p) === grantOf(t))
    const early = tokens.filter(t => {
      const before = previous(t)
      return before !== undefined && t.at - before.at < lifetimeMs - RENEWAL_WINDOW_SECONDS * 1000
    })
    if (early.length > 0) {
      return failed(`${plural(early.length, 'token')} of ${tokens.length} requested while the previous one had more than ${RENEWAL_WINDOW_SECONDS / 60} minutes left, for ${plural(calls.length, 'authenticated request')}`,
        early.map(t => evidence(`token requested ${Math.round((t.at - previous(t)!.at) / 1000)} s after the previous one`, { requestIds: [t.id] })))
    }
    return passed(`${plural(tokens.length, 'token')} for ${plural(calls.length, 'authenticated request')}`)
  },
}

const tokenRenewal: CheckDefinition = {
  id: 'token-renewed',
  title: 'An expired token leads to a new one',
  section: 'gateway 5 items 5 and 6',
  page: 'gateway.md',
  anchor: '#5-authentication',
  dialects: BOTH,
  passes: 'the integration kept working past a token\'s 30 minutes: it renewed before expiry, or requested a new token right after the 401 of an expired one',
  fails: 'a 401 for an expired token was followed by another request with an expired token, or by no new token at all',
  exercise: 'keep the integration running past a token\'s lifetime: advance the sandbox clock 30 minutes (POST /__sandbox/clock/advance { "ms": 1800000 }) between two calls',
  evaluate (f) {
    const tokens = tokensOf(f)
    const expired = f.requests.filter(r => r.expiredToken)
    const pastExpiry = tokens.length > 0 && authenticated(f).some(r => r.at >= tokens[0].at + lifetimeMs)
    if (expired.length === 0 && !pastExpiry) return notExercised(`no request came after a token expired; to exercise it, ${this.exercise}`)
    const problems: ReturnType<typeof evidence>[] = []
    for (const e of expired) {
      const later = f.requests.filter(r => r.at >= e.at && f.requests.indexOf(r) > f.requests.indexOf(e))
      const renewal = later.findIndex(isToken)
      const again = later.findIndex(r => r.expiredToken)
      if (renewal === -1 && again === -1) problems.push(evidence('401 for an expired token, and no new token was requested after it', { requestIds: [e.id] }))
      else if (again !== -1 && (renewal === -1 || again < renewal)) problems.push(evidence('an expired token was sent again after its 401', { requestIds: [e.id, later[again].id] }))
    }
    if (problems.length > 0) return failed(`${plural(expired.length, '401')} for an expired token; the integration did not renew after ${plural(problems.length, 'of them', 'of them')}`, problems)
    return passed(expired.length === 0
      ? 'renewed before expiry: requests after the first token\'s 30 minutes still went through'
      : `a new token followed each of ${plural(expired.length, '401')} for an expired token`)
  },
}

// ---- pay-outs (docs/gateway.md §7.2, 7.3, 7.6, 6.4) -------------------------------------------------

/** Refusals that answer the same to the same request: retrying one unchanged cannot succeed. */
const FINAL_REFUSALS: ReadonlySet<string> = new Set([
  'PIX_INSUFFICIENT_BALANCE', 'PIX_TRANSACTION_LIMIT_EXCEEDED', 'PIX_DAILY_LIMIT_EXCEEDED',
  'PIX_NIGHT_LIMIT_EXCEEDED', 'PIX_INVALID_PIX_KEY', 'KEY_NOT_FOUND', 'ISPB_DENIED', 'QRCODE_ALREADY_PAID', 'QRCODE_NOT_AVAILABLE',
])
/** The same pay-out sent again: route, destination and amount, all known (a journal without bodies knows neither). */
const sameOrder = (a: RequestFact, b: RequestFact): boolean =>
  a.route === b.route && a.target !== null && a.target === b.target && a.amountCents !== null && a.amountCents === b.amountCents

const refusalNotRetried: CheckDefinition = {
  id: 'refusal-not-retried',
  title: 'A pay-out refused for balance, limits or an invalid key is not retried unchanged',
  section: 'gateway 7.2, 7.3, 7.6',
  page: 'gateway.md',
  anchor: '#72-cash-out',
  dialects: ['gateway'],
  passes: `no pay-out refused with ${[...FINAL_REFUSALS].join(', ')} was sent again to the same destination for the same amount and refused the same way`,
  fails: 'the same pay-out (route, destination, amount) was sent again and got the same refusal',
  exercise: 'have a pay-out refused, e.g. a cash-out with X-Sandbox-Scenario: INSUFFICIENT_FUNDS, and let the integration handle it',
  evaluate (f) {
    const refused = f.requests.filter(r => PAYOUT_ROUTES.has(r.route) && r.errorCode !== null && FINAL_REFUSALS.has(r.errorCode))
    if (refused.length === 0) return notExercised(`no pay-out was refused; to exercise it, ${this.exercise}`)
    const repeats = refused.filter((r, i) => refused.slice(0, i).some(e => sameOrder(e, r) && e.errorCode === r.errorCode))
    if (repeats.length > 0) {
      return failed(`${plural(repeats.length, 'refused pay-out')} sent again unchanged and refused again`, repeats.map(r => {
        const first = refused.find(e => sameOrder(e, r) && e.errorCode === r.errorCode)!
        return evidence(`${r.route} refused ${r.errorCode} twice for the same destination and amount`, { requestIds: [first.id, r.id] })
      }))
    }
    return passed(`${plural(refused.length, 'refused pay-out')}, none retried unchanged`)
  },
}

const keyOf = (r: RequestFact): string | null => r.route === '/dict/pix' ? r.idempotencyKey : r.externalId
const txKeyOf = (tx: Transaction): string | null => (tx.kind === 'DICT_TRANSFER' ? tx.idempotencyKey : tx.externalId) ?? null

const indeterminatePayout: CheckDefinition = {
  id: 'indeterminate-payout-resolved',
  title: 'After a 500 or a lost answer on a pay-out, the integration queries or retries with the same key, and never pays twice',
  section: 'gateway 7.3, 7.2, 4.1 endpoint 4',
  page: 'gateway.md',
  anchor: '#73-cash-out-by-qr-code',
  dialects: ['gateway'],
  passes: 'each pay-out answered 500, or not answered at all, was followed by a transaction query or by a retry with the same externalId (x-idempotency-key on /dict/pix), and no second payment went to the same destination for the same amount',
  fails: 'the outcome was left unknown (no query, no retry with the same key), or a new payment with another key paid the same destination the same amount again',
  exercise: 'have a pay-out answer 500 although it was made: a cash-out by QR code with X-Sandbox-Scenario: INTERNAL_ERROR',
  evaluate (f) {
    const unknown = f.requests.filter(r => PAYOUT_ROUTES.has(r.route) && (r.status === null || r.status === 500))
    if (unknown.length === 0) return notExercised(`no pay-out was answered 500 or left unanswered; to exercise it, ${this.exercise}`)
    const problems: Evidence[] = []
    for (const r of unknown) {
      const key = keyOf(r)
      const after = f.requests.slice(f.requests.indexOf(r) + 1)
      const followed = after.some(x => (x.method === 'GET' && x.route.startsWith('/__sandbox/transactions')) || (x.route === r.route && key !== null && keyOf(x) === key))
      const made = f.transactions.filter(tx => isPayout(tx) && key !== null && txKeyOf(tx) === key && tx.status !== 'ERROR')
      // Made by a later request: its key was not sent before (a frozen clock gives both one instant).
      const before = new Set(f.requests.slice(0, f.requests.indexOf(r)).map(keyOf))
      const again = f.transactions.filter(tx => isPayout(tx) && tx.status !== 'ERROR' && Date.parse(tx.createdAt) >= r.at && !before.has(txKeyOf(tx)) &&
        (key === null || txKeyOf(tx) !== key) && payoutTarget(tx) === r.target && tx.amountCents === r.amountCents)
      if (made.length + again.length > 1) {
        problems.push(evidence(`${r.route} ${outcome(r)}; the same destination was paid the same amount again under another key`, { requestIds: [r.id], transactionIds: [...made, ...again].map(tx => tx.id) }))
      } else if (!followed) {
        problems.push(evidence(`${r.route} ${outcome(r)}, and no transaction query or retry with the same key followed`, { requestIds: [r.id] }))
      }
    }
    if (problems.length > 0) return failed(`${plural(problems.length, 'indeterminate pay-out')} of ${unknown.length} not resolved safely`, problems)
    return passed(`${plural(unknown.length, 'indeterminate pay-out')}, each resolved by a query or a retry with the same key, none paid twice`)
  },
}

/** The asynchronous errors of docs/gateway.md §6.4 whose table says "no" to a retry (and a group A provider's refusal). */
const FINAL_ASYNC_ERRORS: ReadonlySet<string> = new Set(['TAX_ID_MISMATCH', 'INVALID_TAX_ID', 'BLOCKED_ACCOUNT', 'ACCOUNT_CLOSED', 'ORDER_REJECTED', 'PROVIDER_REJECTED'])
/** Accepted (PENDING), then failed: not a QR code refused at once (docs/gateway.md §7.3, refusal-not-retried's business). */
const settledInError = (tx: Transaction): boolean => tx.history.some(h => h.status === 'PENDING')
const failedAt = (tx: Transaction): number => Date.parse(tx.history.find(h => h.status === 'ERROR')?.at ?? tx.updatedAt)

const finalErrorNotRetried: CheckDefinition = {
  id: 'final-error-not-retried',
  title: 'A pay-out that failed with a final error is not sent again',
  section: 'gateway 6.4',
  page: 'gateway.md',
  anchor: '#64-cash-out-notification-standard-family',
  dialects: ['gateway'],
  passes: `no new pay-out went to the same destination for the same amount after one ended ERROR with ${[...FINAL_ASYNC_ERRORS].join(', ')} (PAYMENT_EXPIRED and SETTLEMENT_TIMEOUT may be sent again)`,
  fails: 'a pay-out that ended with a final error was sent again to the same destination for the same amount',
  exercise: 'have a pay-out end ERROR after it was accepted, e.g. a cash-out with X-Sandbox-Scenario: BLOCKED_ACCOUNT, and let the integration read the webhook',
  evaluate (f) {
    const final = f.transactions.filter(tx => isPayout(tx) && tx.status === 'ERROR' && tx.errorCode && FINAL_ASYNC_ERRORS.has(tx.errorCode) && settledInError(tx))
    if (final.length === 0) return notExercised(`no pay-out ended with a final error; to exercise it, ${this.exercise}`)
    const problems: Evidence[] = []
    for (const tx of final) {
      // Created after it (seq: a frozen clock gives both one instant), once it had failed.
      const again = f.transactions.filter(x => x.seq > tx.seq && isPayout(x) && Date.parse(x.createdAt) >= failedAt(tx) && payoutTarget(x) === payoutTarget(tx) && x.amountCents === tx.amountCents)
      if (again.length > 0) problems.push(evidence(`${tx.errorCode} is final, yet the same payment was sent again`, { transactionIds: [tx.id, ...again.map(x => x.id)] }))
    }
    if (problems.length > 0) return failed(`${plural(problems.length, 'pay-out')} sent again after a final error`, problems)
    return passed(`${plural(final.length, 'pay-out')} ended with a final error, none sent again`)
  },
}

// ---- webhooks (docs/gateway.md §6.2) ----------------------------------------------------------------

/** The probe's fault (`POST /__sandbox/report/probe`), also a scenario any event can carry. */
export const BAD_SIGNATURE = 'WEBHOOK_BAD_SIGNATURE'
const hasFault = (d: Delivery, name: string): boolean => d.scenarios.some(s => s.split(';')[0] === name)
const signed = (d: Delivery): boolean => !hasFault(d, BAD_SIGNATURE)
/** Attempts the receiver is answerable for: not the first one a WEBHOOK_RECEIVER_TIMEOUT fault turns into a timeout, not one never made. */
function receiverAttempts (d: Delivery): DeliveryAttempt[] {
  return d.attempts.filter(a => !(a.kind === 'first' && hasFault(d, 'WEBHOOK_RECEIVER_TIMEOUT')) && !(a.error ?? '').startsWith('SELF_ADDRESS'))
}
const is2xx = (a: DeliveryAttempt): boolean => a.error === null && a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300

const webhooksAcknowledged: CheckDefinition = {
  id: 'webhooks-acknowledged',
  title: 'Every webhook is answered 2xx within the timeout',
  section: 'gateway 6.2',
  page: 'gateway.md',
  anchor: '#62-delivery',
  dialects: BOTH,
  passes: 'every attempt to deliver a (correctly signed) webhook, duplicates and retries included, was answered 2xx before SANDBOX_WEBHOOK_TIMEOUT_MS',
  fails: 'an attempt was answered with another status, timed out or could not connect (the evidence lists the deliveries and what each attempt got)',
  exercise: 'register a webhook (POST /__sandbox/webhooks, or PUT /webhook/{chave} of API Pix) and make an operation that sends one, e.g. a cash-out that settles, or a PIX paid to the key',
  evaluate (f) {
    const made = f.deliveries.filter(d => d.url !== null && signed(d) && receiverAttempts(d).length > 0)
    if (made.length === 0) return notExercised(`no webhook was sent to a receiver; to exercise it, ${this.exercise}`)
    const bad = made.filter(d => receiverAttempts(d).some(a => !is2xx(a)))
    const attempts = made.reduce((n, d) => n + receiverAttempts(d).length, 0)
    if (bad.length > 0) {
      return failed(`${plural(bad.length, 'delivery', 'deliveries')} of ${made.length} had an attempt not answered 2xx`,
        bad.map(d => evidence(`${d.eventType} to ${d.url}: ${receiverAttempts(d).filter(a => !is2xx(a)).map(a => a.error ?? `HTTP ${a.statusCode}`).join('; ')}`, { deliveryIds: [d.id] })))
    }
    const slowest = Math.max(...made.flatMap(d => receiverAttempts(d).map(a => a.latencyMs ?? 0)))
    return passed(`${plural(attempts, 'attempt')} to ${plural(made.length, 'delivery', 'deliveries')}, all answered 2xx (slowest ${Math.round(slowest)} ms)`)
  },
}

const signatureVerified: CheckDefinition = {
  id: 'webhook-signature-verified',
  title: 'A webhook with a bad signature is refused',
  section: 'gateway 6.2',
  page: 'gateway.md',
  anchor: '#62-delivery',
  dialects: ['gateway'],
  passes: 'every webhook sent with a wrong X-Sandbox-Signature was answered 4xx',
  fails: 'a badly signed webhook was answered 2xx (accepted), or 5xx, or not at all (the receiver broke instead of refusing it)',
  exercise: 'send the probe: POST /__sandbox/report/probe { "accountId": N } (the dashboard\'s Report tab has a button), then read the report again',
  evaluate (f) {
    const probes = f.deliveries.filter(d => d.url !== null && !signed(d) && d.attempts.length > 0)
    if (probes.length === 0) return notExercised(`no badly signed webhook was sent; to exercise it, ${this.exercise}`)
    const refused = (a: DeliveryAttempt): boolean => a.statusCode !== null && a.statusCode >= 400 && a.statusCode < 500
    const bad = probes.filter(d => !d.attempts.every(refused))
    if (bad.length > 0) {
      return failed(`${plural(bad.length, 'badly signed webhook')} of ${probes.length} not refused`, bad.map(d => {
        const got = d.attempts.find(a => !refused(a))!
        const what = got.statusCode !== null && got.statusCode < 300 ? `accepted with ${got.statusCode}` : got.statusCode !== null ? `answered ${got.statusCode} instead of a 4xx` : `not answered (${got.error})`
        return evidence(`${d.eventType} to ${d.url}: ${what}`, { deliveryIds: [d.id] })
      }))
    }
    return passed(`${plural(probes.length, 'badly signed webhook')}, each refused with ${[...new Set(probes.flatMap(d => d.attempts.map(a => a.statusCode)))].join(', ')}`)
  },
}

// ---- refunds and charges (docs/gateway.md §4.1, 2.6) ------------------------------------------------

const refundsWithinAmount: CheckDefinition = {
  id: 'refunds-within-amount',
  title: 'Refunds stay within the original amount',
  section: 'gateway 4.1 endpoint 10, 7.8',
  page: 'gateway.md',
  anchor: '#41-rules-per-endpoint',
  dialects: BOTH,
  passes: 'no refund request (refund-in or devolução) asked for more than what was left to refund of its payment',
  fails: 'a refund request was refused because it went beyond the original amount',
  exercise: 'refund a received payment: POST /api/pix/refund-in/{id} or PUT /pix/{e2eid}/devolucao/{id}',
  evaluate (f) {
    const refunds = f.requests.filter(r => REFUND_ROUTES.has(r.route) && r.accountId === f.accountId)
    if (refunds.length === 0) return notExercised(`no refund was requested; to exercise it, ${this.exercise}`)
    const over = refunds.filter(r => r.errorCode === 'REFUND_AMOUNT_EXCEEDS_ORIGINAL')
    if (over.length > 0) return failed(`${plural(over.length, 'refund request')} of ${refunds.length} beyond the original amount`, over.map(r => evidence(`refund of ${r.target} refused: beyond what was left to refund`, { requestIds: [r.id] })))
    return passed(`${plural(refunds.length, 'refund request')}, all within the original amount`)
  },
}

/** A request whose outcome the integration cannot know: no answer came, or a 500. */
const unknownOutcome = (r: RequestFact): boolean => r.status === null || r.status === 500
const operation = (r: RequestFact): string => `${r.method} ${r.route}`
/**
 * A PUT of a cob sent again with its txid: the same charge (the same body), or one whose first attempt
 * had an outcome the integration could not know. Its "txid in use" is the answer that tells it the
 * charge was made, the idempotency a caller's own txid gives (docs/api-pix.md, cob).
 */
function retriedPut (f: IntegrationFacts, r: RequestFact): boolean {
  if (r.method !== 'PUT' || r.externalId === null) return false
  return f.requests.slice(0, f.requests.indexOf(r)).some(e => e.family === r.family && operation(e) === operation(r) && e.externalId === r.externalId &&
    ((e.sent !== null && e.sent === r.sent) || unknownOutcome(e)))
}

const chargeExternalIds: CheckDefinition = {
  id: 'charge-external-id-unique',
  title: 'A charge is created with a unique externalId',
  section: 'gateway 2.6, 4.1 endpoint 9',
  page: 'gateway.md',
  anchor: '#26-cash-in-a-charge-with-a-qr-code',
  dialects: BOTH,
  passes: 'no charge creation (cash-in, cob on either dialect, API Pix\'s cobv) was refused because its externalId or txid was already used by another charge; a PUT /cob/{txid} sent again for the same charge, or after an attempt that got no answer, is a retry, not a reuse',
  fails: 'a cash-in was refused with PIX_DUPLICATE_EXTERNAL_ID, or a cob or cobv for a txid in use by another charge (409 on the root family, 400 CobOperacaoInvalida or CobVOperacaoInvalida on API Pix)',
  exercise: 'create a charge: POST /api/pix/cash-in, PUT /cob/{txid} on either dialect, or PUT /cobv/{txid} of API Pix',
  evaluate (f) {
    const charges = f.requests.filter(r => CHARGE_CREATIONS.has(operation(r)) && r.accountId === f.accountId)
    if (charges.length === 0) return notExercised(`no charge was created; to exercise it, ${this.exercise}`)
    const reused = charges.filter(r => r.errorCode === 'PIX_DUPLICATE_EXTERNAL_ID' || (r.errorCode === 'COB_TXID_EXISTS' && !retriedPut(f, r)))
    if (reused.length > 0) return failed(`${plural(reused.length, 'charge')} of ${charges.length} created with an id already used`, reused.map(r => evidence(`${operationOf(r)} with ${r.externalId} refused ${r.errorCode}`, { requestIds: [r.id] })))
    return passed(`${plural(charges.length, 'charge creation')}, each with its own id`)
  },
}

// ---- requests (docs/gateway.md §7; docs/api-pix.md, Errors) -----------------------------------------

/**
 * Whether an account's requests to a dialect passed its validation: none refused 400 with one of
 * `codes`; `note` says what each refused one got.
 */
function validity (f: IntegrationFacts, dialect: Dialect, codes: ReadonlySet<string>, exercise: string, note: (r: RequestFact) => string): CheckResult {
  const where = dialect === 'gateway' ? 'the gateway' : DIALECT_NAMES[dialect]
  const sent = f.requests.filter(r => r.family === dialect && r.accountId === f.accountId)
  if (sent.length === 0) return notExercised(`no request reached ${where}; to exercise it, ${exercise}`)
  const invalid = sent.filter(r => r.status === 400 && r.errorCode !== null && codes.has(r.errorCode))
  if (invalid.length > 0) return failed(`${plural(invalid.length, 'request')} of ${sent.length} refused as invalid`, invalid.map(r => evidence(note(r), { requestIds: [r.id] })))
  return passed(`${plural(sent.length, 'request')}, none refused as invalid`)
}

/** The codes of a request refused for its own data: a validation error, an amount off its format. */
const INVALID_REQUEST: ReadonlySet<string> = new Set(['HTTP_ERROR', 'PIX_INVALID_AMOUNT'])

const requestsValid: CheckDefinition = {
  id: 'requests-valid',
  title: 'Requests pass the gateway\'s validation',
  section: 'gateway 7, 8',
  page: 'gateway.md',
  anchor: '#7-errors',
  dialects: ['gateway'],
  passes: 'no request to the gateway was refused 400 for its own data (a validation error, code HTTP_ERROR, or PIX_INVALID_AMOUNT)',
  fails: 'a request was refused 400 for a field off its format or limits (the evidence lists each, with its route)',
  exercise: 'make requests to the gateway',
  evaluate (f) {
    return validity(f, 'gateway', INVALID_REQUEST, this.exercise, r => `${r.method} ${r.route} refused ${r.errorCode}`)
  },
}

// ---- API Pix (docs/api-pix.md) ----------------------------------------------------------------------

/** API Pix's refusals of a request for its own data: invalid input (problem details with `violacoes`), a token asked wrongly. */
const API_PIX_INVALID: ReadonlySet<string> = new Set(['HTTP_ERROR', 'INVALID_SCOPE', 'UNSUPPORTED_GRANT_TYPE'])

const apiPixRequestsValid: CheckDefinition = {
  id: 'api-pix-requests-valid',
  title: 'Requests pass API Pix\'s validation',
  section: 'api-pix Errors',
  page: 'api-pix.md',
  anchor: '#errors',
  dialects: ['api-pix'],
  passes: 'no request to API Pix was refused 400 for its own data: no problem details listing violacoes, no token refused invalid_request, invalid_scope or unsupported_grant_type',
  fails: 'a request was refused 400 for a field off its format or rules (the evidence lists each operation with the violacoes it got, propriedade and razao)',
  exercise: 'make requests to API Pix (under its base path, /v2 by default)',
  evaluate (f) {
    return validity(f, 'api-pix', API_PIX_INVALID, this.exercise, r => `${operationOf(r)} refused ${r.violations.length > 0 ? r.violations.join('; ') : r.errorCode}`)
  },
}

const scopeRefusalNotRetried: CheckDefinition = {
  id: 'scope-refusal-not-retried',
  title: 'A request refused for a scope its token lacks is not sent again with the same token',
  section: 'api-pix Scopes',
  page: 'api-pix.md',
  anchor: '#scopes',
  dialects: ['api-pix'],
  passes: 'no operation answered 403 AcessoNegado (its token lacks the scope the operation needs) was sent again with that same token',
  fails: 'the same operation was sent again with the token it was refused for, and refused again (the evidence lists both requests)',
  exercise: 'call an operation with a token without its scope: POST /oauth/token with scope=cob.read, then PUT /cob/{txid} of API Pix; or an account created with "scopes" that leave one out',
  evaluate (f) {
    const denied = f.requests.filter(r => r.family === 'api-pix' && r.status === 403 && r.errorCode === 'ACCESS_DENIED')
    if (denied.length === 0) return notExercised(`no request was refused for a scope; to exercise it, ${this.exercise}`)
    const sameAgain = (e: RequestFact, r: RequestFact): boolean => e.tokenId !== null && e.tokenId === r.tokenId && operation(e) === operation(r)
    const repeats = denied.filter((r, i) => denied.slice(0, i).some(e => sameAgain(e, r)))
    if (repeats.length > 0) {
      return failed(`${plural(repeats.length, 'request')} sent again with the token that lacked the scope`, repeats.map(r => {
        const first = denied.find(e => sameAgain(e, r))!
        return evidence(`${operationOf(r)} refused AcessoNegado twice with the same token`, { requestIds: [first.id, r.id] })
      }))
    }
    return passed(`${plural(denied.length, 'request')} refused for a scope, none sent again with the same token`)
  },
}

/** The list that shows a charge a creation made: GET /cob for a cob, GET /cobv for a cobv. */
const listOf = (r: RequestFact): string => `GET /${r.route.split('/')[1]}`

const cobCreationResolved: CheckDefinition = {
  id: 'cob-creation-resolved',
  title: 'A cob or cobv creation that got no answer is resolved by its txid, never by creating the charge again',
  section: 'api-pix cob',
  page: 'api-pix.md',
  anchor: '#cob',
  dialects: ['api-pix'],
  passes: 'after each cob or cobv creation (PUT /cob/{txid}, POST /cob, PUT /cobv/{txid}) that got no answer or a 500, the integration read it (GET /cob/{txid}, GET /cob, GET /cobv/{txid}, GET /cobv) or sent the same PUT again (whose "txid in use" or revision says it was made) before it created the same charge under another txid, if it did',
  fails: 'the same charge (the same body) was created under another txid (POST /cob again, or PUT with a new txid) before the integration found out what the first creation did: two charges for one sale',
  exercise: 'have a cob or cobv creation lose its answer after it was made: PUT /cob/{txid} or PUT /cobv/{txid} of API Pix with X-Sandbox-Scenario: CONNECTION_RESET;after=commit',
  evaluate (f) {
    const isCreation = (r: RequestFact): boolean => r.family === 'api-pix' && COB_CREATIONS.has(operation(r))
    const lost = f.requests.filter(r => isCreation(r) && unknownOutcome(r))
    if (lost.length === 0) return notExercised(`no cob or cobv creation went without an answer; to exercise it, ${this.exercise}`)
    const problems: Evidence[] = []
    for (const r of lost) {
      const after = f.requests.slice(f.requests.indexOf(r) + 1).filter(x => x.family === 'api-pix')
      const sameTxid = (x: RequestFact): boolean => r.method === 'PUT' && x.externalId === r.externalId && (operation(x) === `GET ${r.route}` || operation(x) === operation(r))
      // What came first: finding out (a read, the same PUT again), or the same charge under another txid.
      const next = after.find(x => operation(x) === listOf(r) || sameTxid(x) || (isCreation(x) && x.sent !== null && x.sent === r.sent))
      if (next !== undefined && isCreation(next) && !sameTxid(next)) {
        problems.push(evidence(`${operationOf(r)} ${outcome(r)}; the same charge was then created again by ${operation(next)}${next.externalId ? ` with txid ${next.externalId}` : ''}`, { requestIds: [r.id, next.id] }))
      }
    }
    if (problems.length > 0) return failed(`${plural(problems.length, 'charge creation')} of ${lost.length} without an answer created again under another txid`, problems)
    return passed(`${plural(lost.length, 'charge creation')} without an answer, none created again under another txid`)
  },
}

const listsReadToTheEnd: CheckDefinition = {
  id: 'lists-paged-through',
  title: 'A list of API Pix is read page by page to its end',
  section: 'api-pix cob',
  page: 'api-pix.md',
  anchor: '#cob',
  dialects: ['api-pix'],
  passes: 'each list answer (GET /cob, GET /loc, ...) whose paginacao said more pages followed was followed by a request for a later page of the same list (the same filters), or for one page that held the rest',
  fails: 'a list answered one page of several (paginacao.quantidadeDePaginas) and the integration never asked for the next: what the later pages held was never read',
  exercise: 'list more than one page holds: GET /cob of API Pix with paginacao.itensPorPagina smaller than the number of charges created between inicio and fim',
  evaluate (f) {
    const pages = f.requests.filter(r => r.family === 'api-pix' && r.listPage !== null)
    const more = pages.filter(r => r.listPage!.page < r.listPage!.pages - 1)
    if (more.length === 0) return notExercised(`${plural(pages.length, 'list answer')}, none with more pages to read; to exercise it, ${this.exercise}`)
    const unread = more.filter(r => {
      const { list, page } = r.listPage!
      return !f.requests.slice(f.requests.indexOf(r) + 1).some(x => x.listPage?.list === list && (x.listPage.page > page || x.listPage.page === x.listPage.pages - 1))
    })
    if (unread.length > 0) {
      return failed(`${plural(unread.length, 'list answer')} of ${more.length} with more pages not followed by the next page`,
        unread.map(r => evidence(`${operationOf(r)} answered page ${r.listPage!.page} of ${r.listPage!.pages} (counted from 0), and no later page of that list was asked for`, { requestIds: [r.id] })))
    }
    return passed(`${plural(more.length, 'list answer')} with more pages, each followed by the next`)
  },
}

// ---- Pix Automático (docs/api-pix.md, Pix Automático and Recurring charges) -------------------------

const isoAt = (ms: number): string => new Date(ms).toISOString()
/** When a recurrence reached its (final) status, by its history. */
const endedAt = (rec: Recurrence): number => Date.parse(rec.atualizacao.find(a => a.status === rec.status)?.data ?? rec.createdAt)
const created = (r: RequestFact): boolean => r.status !== null && r.status < 300

/**
 * The recurrences that ended in one of `statuses`, each with the recurring charges the integration
 * asked for after it ended: the sandbox refuses them (the recurrence is no longer APROVADA), so what
 * is graded is having sent them. One the sandbox created came before the end (a frozen clock may give
 * both one instant).
 */
function endedNotCharged (f: IntegrationFacts, statuses: readonly RecStatus[], what: string, exercise: string): CheckResult {
  const ended = f.recurrences.filter(r => statuses.includes(r.status))
  if (ended.length === 0) return notExercised(`no recurrence was ${what}; to exercise it, ${exercise}`)
  const problems: Evidence[] = []
  for (const rec of ended) {
    const since = endedAt(rec)
    const after = f.requests.filter(r => r.family === 'api-pix' && COBR_CREATIONS.has(operation(r)) && r.idRec === rec.idRec && r.at >= since && !created(r))
    if (after.length === 0) continue
    problems.push(evidence(`recurrence ${rec.idRec} ${rec.status} at ${isoAt(since)}; then ${after.map(r => `${operation(r)}${r.externalId ? ` with txid ${r.externalId}` : ''} ${outcome(r)}`).join('; ')}`,
      { requestIds: after.map(r => r.id) }))
  }
  if (problems.length > 0) return failed(`${plural(problems.length, 'recurrence')} of ${ended.length} ${what} charged afterwards`, problems)
  return passed(`${plural(ended.length, 'recurrence')} ${what}, none charged afterwards`)
}

const rejectedNotCharged: CheckDefinition = {
  id: 'rejected-rec-not-charged',
  title: 'A recurrence rejected or cancelled is not charged',
  section: 'api-pix Pix Automático',
  page: 'api-pix.md',
  anchor: '#pix-automático',
  dialects: ['api-pix'],
  passes: 'no recurring charge (PUT /cobr/{txid}, POST /cobr) was asked for a recurrence once it was REJEITADA (by the payer or the payer\'s PSP, directly or through its confirmation request) or CANCELADA (by either side)',
  fails: 'a recurring charge was asked for a recurrence after it was rejected or cancelled, which its webhook (/webhookrec) and GET /rec/{idRec} said from that moment (the evidence names the recurrence and lists the requests)',
  exercise: 'have a recurrence rejected: POST /rec with X-Sandbox-Scenario: REC_PAYER_PSP_REJECTS, POST /solicrec for it and advance the clock 3 seconds (POST /__sandbox/clock/advance { "ms": 3000 }); or POST /__sandbox/recurrences/{idRec}/reject, or .../cancel of an approved one',
  evaluate (f) {
    return endedNotCharged(f, ['REJEITADA', 'CANCELADA'], 'rejected or cancelled', this.exercise)
  },
}

const expiredNotCharged: CheckDefinition = {
  id: 'expired-rec-not-charged',
  title: 'A recurrence whose authorisation expired is not charged',
  section: 'api-pix Pix Automático',
  page: 'api-pix.md',
  anchor: '#pix-automático',
  dialects: ['api-pix'],
  passes: 'no recurring charge (PUT /cobr/{txid}, POST /cobr) was asked for a recurrence once it was EXPIRADA: its confirmation request unanswered by dataExpiracaoSolicitacao, or its dataFinal passed. Whether to ask the payer again (a new recurrence, and its request) is the receiver\'s choice, not graded',
  fails: 'a recurring charge was asked for a recurrence after it expired (the evidence names the recurrence and lists the requests)',
  exercise: 'have a recurrence expire: POST /rec with X-Sandbox-Scenario: REC_PAYER_PSP_SILENT, POST /solicrec for it and advance the clock past its dataExpiracaoSolicitacao; or POST /__sandbox/recurrences/{idRec}/expire',
  evaluate (f) {
    return endedNotCharged(f, ['EXPIRADA'], 'expired', this.exercise)
  },
}

/** A failed attempt after which its charge waited for a retry, until the last day one could be asked for. */
interface RetryWait { cobr: CobR, attempt: number, until: string }

/**
 * The waits for a retry of a charge: after each failed attempt, what the sandbox's rules (domain/cobr.ts,
 * `cobrAfterAttempt`) made of the charge on the day it failed, with the attempts up to it. A code that
 * ends the charge, NAO_PERMITE, 3 retries spent or no day left in the window leave nothing to ask for.
 */
function retryWaits (cobr: CobR, rec: Recurrence | undefined): RetryWait[] {
  const waits: RetryWait[] = []
  cobr.tentativas.forEach((t, i) => {
    const resultado: TentativaResultado | null = t.status === 'EXPIRADA' ? { status: 'EXPIRADA' } : t.status === 'REJEITADA' && t.rejeicao !== undefined ? { status: 'REJEITADA', rejeicao: t.rejeicao } : null
    if (resultado === null) return
    const after = cobrAfterAttempt({
      politicaRetentativa: cobr.politicaRetentativa,
      recStatus: rec === undefined ? null : rec.status,
      cobr: { dataDeVencimento: cobr.calendario.dataDeVencimento, ajusteDiaUtil: cobr.ajusteDiaUtil, status: 'ATIVA', tentativas: cobr.tentativas.slice(0, i + 1) },
      proximoVencimento: rec === undefined ? null : recNextDueDate(rec.terms.calendario, cobr.calendario.dataDeVencimento),
      hoje: saoPauloTime(Date.parse(t.atualizacao[t.atualizacao.length - 1].data)).day,
    }, resultado)
    if (after.status === 'ATIVA') waits.push({ cobr, attempt: i, until: after.retentativaAte })
  })
  return waits
}

const failedAttempts = (f: IntegrationFacts): number => f.cobrs.reduce((n, c) => n + c.tentativas.filter(t => t.status === 'REJEITADA' || t.status === 'EXPIRADA').length, 0)

const retryRequested: CheckDefinition = {
  id: 'cobr-retry-requested',
  title: 'A recurring charge whose debit failed is retried while its recurrence allows',
  section: 'api-pix Recurring charges',
  page: 'api-pix.md',
  anchor: '#recurring-charges',
  dialects: ['api-pix'],
  passes: 'after each failed debit (an attempt EXPIRADA, or REJEITADA with a code that leaves the charge ATIVA) of a charge whose recurrence allows retries (politicaRetentativa PERMITE_3R_7D), while fewer than 3 retries were spent and a day was left in the 7 after the due date (before the next cycle), the integration asked for a retry (POST /cobr/{txid}/retentativa/{data}) before the charge expired',
  fails: 'a charge waited for a retry its recurrence allowed and expired with none asked for: a debit the payer agreed could be retried was given up (the evidence names the charge and the last day a retry could be asked for)',
  exercise: 'have a debit fail on a recurrence with politicaRetentativa PERMITE_3R_7D: PUT /cobr/{txid} with X-Sandbox-Scenario: COBR_INSUFFICIENT_FUNDS, then move the clock to its debit and its evening attempt (POST /__sandbox/clock/next-due, twice) and on past the retry window',
  evaluate (f) {
    const waits = f.cobrs.flatMap(c => retryWaits(c, f.recurrences.find(r => r.idRec === c.idRec)))
    const retried = waits.filter(w => w.cobr.tentativas.length > w.attempt + 1)
    const waiting = waits.filter(w => !retried.includes(w) && w.cobr.status === 'ATIVA')
    // A charge cancelled with its recurrence was not given up by the integration: nothing was left to retry.
    const givenUp = waits.filter(w => !retried.includes(w) && w.cobr.status === 'EXPIRADA')
    const still = waiting.length > 0 ? ` (${plural(waiting.length, 'charge')} still waiting for a retry, until ${waiting.map(w => w.until).join(', ')})` : ''
    if (retried.length + givenUp.length === 0) return notExercised(`no failed debit left a retry to ask for${still}; to exercise it, ${this.exercise}`)
    if (givenUp.length > 0) {
      return failed(`${plural(givenUp.length, 'failed debit')} of ${retried.length + givenUp.length} with a retry left not retried${still}`,
        givenUp.map(w => evidence(`cobr ${w.cobr.txid} (recurrence ${w.cobr.idRec}): attempt ${w.attempt + 1} ${w.cobr.tentativas[w.attempt].status} on ${w.cobr.tentativas[w.attempt].dataLiquidacao}; a retry could be asked for until ${w.until}, none was, and the charge ${w.cobr.status}`, {})))
    }
    return passed(`${plural(retried.length, 'failed debit')} with a retry left, each retried${still}`)
  },
}

const retryAllowed: CheckDefinition = {
  id: 'cobr-retry-allowed',
  title: 'A retry is asked for only when the recurrence\'s policy and window allow one',
  section: 'api-pix Recurring charges',
  page: 'api-pix.md',
  anchor: '#recurring-charges',
  dialects: ['api-pix'],
  passes: 'no retry (POST /cobr/{txid}/retentativa/{data}) was refused 400: none for a recurrence whose politicaRetentativa is NAO_PERMITE, none beyond the 3 of PERMITE_3R_7D, none for a date outside the day after the first attempt to 7 days after the due date (before the next cycle), not in the future or already taken, none while an attempt was pending or once the charge had ended',
  fails: 'a retry was refused 400 CobROperacaoInvalida: the integration asked for one API Pix does not allow (the evidence lists each request with its violacoes)',
  exercise: 'have a debit fail: PUT /cobr/{txid} with X-Sandbox-Scenario: COBR_INSUFFICIENT_FUNDS, then move the clock to its debit and its evening attempt (POST /__sandbox/clock/next-due, twice), and let the integration decide whether to retry',
  evaluate (f) {
    const retries = f.requests.filter(r => r.family === 'api-pix' && operation(r) === COBR_RETRY && r.accountId === f.accountId)
    const debits = failedAttempts(f)
    if (retries.length === 0 && debits === 0) return notExercised(`no debit failed and no retry was asked for; to exercise it, ${this.exercise}`)
    const refused = retries.filter(r => r.status === 400)
    if (refused.length > 0) {
      return failed(`${plural(refused.length, 'retry request')} of ${retries.length} refused`,
        refused.map(r => evidence(`retry of cobr ${r.externalId ?? '?'} refused: ${r.violations.length > 0 ? r.violations.join('; ') : r.errorCode}`, { requestIds: [r.id] })))
    }
    return passed(`${plural(debits, 'failed debit')}, ${plural(retries.length, 'retry request')}, none refused`)
  },
}

export const checks: readonly CheckDefinition[] = [
  tokenReuse, tokenRenewal, refusalNotRetried, indeterminatePayout, finalErrorNotRetried,
  webhooksAcknowledged, signatureVerified, refundsWithinAmount, chargeExternalIds, requestsValid,
  apiPixRequestsValid, scopeRefusalNotRetried, cobCreationResolved, listsReadToTheEnd,
  rejectedNotCharged, expiredNotCharged, retryRequested, retryAllowed,
]

/** The docs table of checks, generated from the catalogue (`npm run docs`; a test fails when it drifts). */
export function checksMarkdown (): string {
  const rows = checks.map(c => `| \`${c.id}\` | ${c.title} | [${c.section}](${c.page}${c.anchor}) | ${c.dialects.map(d => DIALECT_NAMES[d]).join(', ')} | ${c.passes} | ${c.fails} | ${c.exercise} |`)
  return ['| Check | What it asks | Section | Applies to | Passed when | Failed when | To exercise it |', '|---|---|---|---|---|---|---|', ...rows].join('\n')
}
