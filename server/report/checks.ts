import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens.js'
import type { Delivery, DeliveryAttempt } from '../store/state.js'
import { CHARGE_CREATIONS, REFUND_ROUTES, TOKEN_ROUTES, type Dialect, type IntegrationFacts, type RequestFact } from './facts.js'

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
  page: `${string}.md`
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

export const evidence = (note: string, ids: Partial<Omit<Evidence, 'note'>>): Evidence =>
  ({ note, requestIds: ids.requestIds ?? [], deliveryIds: ids.deliveryIds ?? [], transactionIds: ids.transactionIds ?? [] })

export const passed = (summary: string): CheckResult => ({ status: 'passed', summary, evidence: [] })
export const notExercised = (summary: string): CheckResult => ({ status: 'not_exercised', summary, evidence: [] })
export function failed (summary: string, found: Evidence[]): CheckResult {
  const shown = found.slice(0, MAX_EVIDENCE)
  if (found.length > MAX_EVIDENCE) shown.push(evidence(`and ${found.length - MAX_EVIDENCE} more`, {}))
  return { status: 'failed', summary, evidence: shown }
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
export const answered = (r: RequestFact): string => r.status === null ? 'no answer' : `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`
/** What became of a request, as a sentence's verb: `answered 500 INTERNAL_ERROR`, `got no answer`. */
export const outcome = (r: RequestFact): string => r.status === null ? 'got no answer' : `answered ${answered(r)}`
/** The dialects the checks here grade: both APIs an integration of this catalogue speaks. */
const BOTH: readonly Dialect[] = ['gateway', 'api-pix']
/** A token issued: the gateway's (201) or API Pix's OAuth (200). */
const isToken = (r: RequestFact): boolean => TOKEN_ROUTES.has(r.route) && r.status !== null && r.status < 300
const tokensOf = (f: IntegrationFacts): RequestFact[] => f.requests.filter(isToken)
/** Which token a request asks for: its endpoint, and for API Pix's the scopes (another scope's token is not a renewal). */
const grantOf = (r: RequestFact): string => `${r.route} ${r.scope ?? ''}`
/** Requests a token let through (a 401 did not), to either dialect. */
const authenticated = (f: IntegrationFacts): RequestFact[] =>
  f.requests.filter(r => r.family !== 'control' && !TOKEN_ROUTES.has(r.route) && r.accountId === f.accountId && r.status !== 401 && !r.expiredToken)
const lifetimeMs = TOKEN_LIFETIME_SECONDS * 1000
/** `PUT /cob/:txid` as the report names it: API Pix's with the word, since the gateway has the same route. */
export const operationOf = (r: RequestFact): string => `${r.family === 'api-pix' ? 'API Pix ' : ''}${r.method} ${r.route}`

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

// ---- webhooks (docs/gateway.md §6.2) ----------------------------------------------------------------

/** The probe's fault (`POST /__sandbox/report/probe`), also a scenario any event can carry. */
export const BAD_SIGNATURE = 'WEBHOOK_BAD_SIGNATURE'
export const hasFault = (d: Delivery, name: string): boolean => d.scenarios.some(s => s.split(';')[0] === name)
export const signed = (d: Delivery): boolean => !hasFault(d, BAD_SIGNATURE)
/** Attempts the receiver is answerable for: not the first one a WEBHOOK_RECEIVER_TIMEOUT fault turns into a timeout, not one never made. */
export function receiverAttempts (d: Delivery): DeliveryAttempt[] {
  return d.attempts.filter(a => !(a.kind === 'first' && hasFault(d, 'WEBHOOK_RECEIVER_TIMEOUT')) && !(a.error ?? '').startsWith('SELF_ADDRESS'))
}
export const is2xx = (a: DeliveryAttempt): boolean => a.error === null && a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300

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
export const unknownOutcome = (r: RequestFact): boolean => r.status === null || r.status === 500
export const operation = (r: RequestFact): string => `${r.method} ${r.route}`
/**
 * A PUT of a cob sent again with its txid: the same charge (the same body), or one whose first attempt
 * had an outcome the integration could not know. Its "txid in use" is the answer that tells it the
 * charge was made, the idempotency a caller's own txid gives (docs/api-pix.md, cob).
 */
export function retriedPut (f: IntegrationFacts, r: RequestFact): boolean {
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
  fails: 'a cash-in was refused with PIX_DUPLICATE_EXTERNAL_ID, or a cob or cobv for a txid in use by another charge (409 on the gateway, 400 CobOperacaoInvalida or CobVOperacaoInvalida on API Pix)',
  exercise: 'create a charge: POST /api/pix/cash-in, PUT /cob/{txid} on either dialect, or PUT /cobv/{txid} of API Pix',
  evaluate (f) {
    const charges = f.requests.filter(r => CHARGE_CREATIONS.has(operation(r)) && r.accountId === f.accountId)
    if (charges.length === 0) return notExercised(`no charge was created; to exercise it, ${this.exercise}`)
    const reused = charges.filter(r => r.errorCode === 'PIX_DUPLICATE_EXTERNAL_ID' || (r.errorCode === 'COB_TXID_EXISTS' && !retriedPut(f, r)))
    if (reused.length > 0) return failed(`${plural(reused.length, 'charge')} of ${charges.length} created with an id already used`, reused.map(r => evidence(`${operationOf(r)} with ${r.externalId} refused ${r.errorCode}`, { requestIds: [r.id] })))
    return passed(`${plural(charges.length, 'charge creation')}, each with its own id`)
  },
}

/**
 * Whether an account's requests to a dialect passed its validation: none refused 400 with one of
 * `codes`; `where` names the dialect in a sentence; `note` says what each refused one got.
 */
export function validity (f: IntegrationFacts, dialect: Dialect, where: string, codes: ReadonlySet<string>, exercise: string, note: (r: RequestFact) => string): CheckResult {
  const sent = f.requests.filter(r => r.family === dialect && r.accountId === f.accountId)
  if (sent.length === 0) return notExercised(`no request reached ${where}; to exercise it, ${exercise}`)
  const invalid = sent.filter(r => r.status === 400 && r.errorCode !== null && codes.has(r.errorCode))
  if (invalid.length > 0) return failed(`${plural(invalid.length, 'request')} of ${sent.length} refused as invalid`, invalid.map(r => evidence(note(r), { requestIds: [r.id] })))
  return passed(`${plural(sent.length, 'request')}, none refused as invalid`)
}

/** The checks that grade more than one dialect; each dialect's own come with it (its descriptor's report part). */
export const crossChecks: readonly CheckDefinition[] = [tokenReuse, tokenRenewal, webhooksAcknowledged, refundsWithinAmount, chargeExternalIds]

/** The catalogue: the checks of more than one dialect, then each dialect's, in the registry's order. */
export function catalogueOf (parts: ReadonlyArray<{ checks?: readonly CheckDefinition[] }>): CheckDefinition[] {
  return [...crossChecks, ...parts.flatMap(p => p.checks ?? [])]
}

/** The docs table of checks, generated from the catalogue (`npm run docs`; a test fails when it drifts); `titles`, how each dialect is named. */
export function checksMarkdown (checks: readonly CheckDefinition[], titles: Readonly<Record<string, string>>): string {
  const rows = checks.map(c => `| \`${c.id}\` | ${c.title} | [${c.section}](${c.page}${c.anchor}) | ${c.dialects.map(d => titles[d] ?? d).join(', ')} | ${c.passes} | ${c.fails} | ${c.exercise} |`)
  return ['| Check | What it asks | Section | Applies to | Passed when | Failed when | To exercise it |', '|---|---|---|---|---|---|---|', ...rows].join('\n')
}
