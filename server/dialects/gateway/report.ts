import type { DeliveryAttempt, Transaction } from '../../store/state.js'
import {
  evidence, failed, notExercised, outcome, passed, plural, signed, validity, type CheckDefinition, type Evidence,
} from '../../report/checks.js'
import { isPayout, PAYOUT_ROUTES, payoutTarget, type RequestFact } from '../../report/facts.js'

/**
 * The gateway's own checks of the integration report (server/report/checks.ts): pure functions of an
 * account's facts, graded only for an integration that used the gateway.
 */
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

// ---- requests (docs/gateway.md §7; docs/api-pix.md, Errors) -----------------------------------------

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
    return validity(f, 'gateway', 'the gateway', INVALID_REQUEST, this.exercise, r => `${r.method} ${r.route} refused ${r.errorCode}`)
  },
}

/** The gateway's own checks, in the report's order. */
export const gatewayChecks: readonly CheckDefinition[] = [refusalNotRetried, indeterminatePayout, finalErrorNotRetried, signatureVerified, requestsValid]
