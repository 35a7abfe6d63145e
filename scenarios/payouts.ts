import type { AsyncErrorCode } from '../server/domain/async-errors.js'
import { scenarioDefinitions, type Endpoint, type ScenarioDefinition } from './types.js'

/**
 * Scenarios of the pay-out endpoints (cash-out, cash-out by QR Code, directory transfer). Each one bends
 * the real machinery of PayoutService: a sync scenario makes the request answer the real error and reserve
 * nothing; an async one lets the request succeed (value + fee reserved) and makes the settlement end
 * `ERROR` with that errorCode, releasing the reservation and sending the failure webhook.
 */
const STANDARD: readonly Endpoint[] = ['cash-out', 'cash-out-qrcode']
const ALL: readonly Endpoint[] = ['cash-out', 'cash-out-qrcode', 'dict-pix']

/** One scenario per asynchronous error code (the compiler checks none is missing), in the catalogue's order. */
const ASYNC_FAILURES: Record<AsyncErrorCode, { meaning: string, endpoints?: readonly Endpoint[] }> = {
  BLOCKED_ACCOUNT: { meaning: 'destination account judicially blocked' },
  ACCOUNT_CLOSED: { meaning: 'destination account closed' },
  ORDER_REJECTED: { meaning: 'destination bank rejected' },
  PAYMENT_EXPIRED: { meaning: 'expired before processing; retryable' },
  SETTLEMENT_TIMEOUT: { meaning: 'destination bank did not answer in time; retryable' },
  TAX_ID_MISMATCH: { meaning: 'details.document differs from the key holder', endpoints: STANDARD },
  INVALID_TAX_ID: { meaning: 'algorithmically invalid document, as a group B provider reports it', endpoints: STANDARD },
}

const asyncFailure = (name: AsyncErrorCode, meaning: string, endpoints: readonly Endpoint[] = ALL): ScenarioDefinition<AsyncErrorCode> => ({
  name,
  endpoints,
  timing: 'async',
  effect: `The payment is accepted (PENDING, value + fee reserved); its settlement ends ERROR with errorCode ${name} (${meaning}), the reservation returns to the available balance and the failure webhook is sent.`,
})

export const payoutScenarios = scenarioDefinitions([
  { name: 'INSUFFICIENT_FUNDS', endpoints: ALL, timing: 'sync', effect: 'Answers as if the available balance were below value + fee: 400 PIX_INSUFFICIENT_BALANCE (cash-out, QR Code), 422 on /dict/pix, with a message that says the shortage is simulated. Nothing is reserved.' },
  { name: 'INVALID_KEY', endpoints: ['cash-out'], timing: 'sync', effect: 'Answers 400 PIX_INVALID_PIX_KEY as if details.key did not match details.keyType. Nothing is reserved.' },
  { name: 'TRANSACTION_LIMIT', endpoints: STANDARD, timing: 'sync', effect: 'Answers 400 PIX_TRANSACTION_LIMIT_EXCEEDED as if the amount were above the per-transaction limit. Nothing is reserved.' },
  { name: 'DAILY_LIMIT', endpoints: STANDARD, timing: 'sync', effect: 'Answers 400 PIX_DAILY_LIMIT_EXCEEDED as if the day\'s pay-outs had reached the daily limit. Nothing is reserved.' },
  { name: 'NIGHT_LIMIT', endpoints: STANDARD, timing: 'sync', effect: 'Answers 400 PIX_NIGHT_LIMIT_EXCEEDED as if it were night (20:00-06:00 São Paulo) and the amount above the night limit. Nothing is reserved.' },
  { name: 'DOCUMENT_MISMATCH', endpoints: STANDARD, timing: 'async', effect: 'The key\'s holder has another document than the one sent, and the account\'s provider group decides as for a real mismatch (gateway 2.4): group A ends ERROR with errorCode PROVIDER_REJECTED and the provider\'s own message, B and D with TAX_ID_MISMATCH (their optional check taken as on), nothing debited; groups C and E do not check, so the payment completes to the key owner, whose document the webhook\'s counterpart shows.' },
  ...(Object.entries(ASYNC_FAILURES) as Array<[AsyncErrorCode, typeof ASYNC_FAILURES[AsyncErrorCode]]>).map(([name, f]) => asyncFailure(name, f.meaning, f.endpoints)),
  {
    name: 'SETTLEMENT_DELAY',
    endpoints: ALL,
    timing: 'async',
    effect: 'Settlement happens ms milliseconds of sandbox time after creation instead of the configured delay. On /dict/pix with priority NORM, a delay longer than `expiration` cancels the transfer (ERROR PAYMENT_EXPIRED) when it expires.',
    params: [{ name: 'ms', description: 'settlement delay in sandbox milliseconds', required: true }],
  },
  {
    name: 'PAYOUT_RETURNED',
    endpoints: STANDARD,
    timing: 'async',
    effect: 'The pay-out settles as usual, then its destination returns all of it at once in `parts` equal devoluções (the last takes the cents left over): each a REFUND_RECEIVED credited to the account, with its refund_out webhook (and, for a pay-out of Efí\'s routes, Efí\'s callback of the sent PIX with the devolução). Efí\'s homologação answers R$ 4.00 with two and R$ 5.00 with one.',
    params: [{ name: 'parts', description: 'how many devoluções, 1 (the default) to 10', required: false, integer: { min: 1, max: 10 } }],
  },
  { name: 'QRCODE_ALREADY_PAID', endpoints: ['cash-out-qrcode'], timing: 'sync', effect: 'Answers 422 with errorCode QRCODE_ALREADY_PAID (final); the transaction is recorded as ERROR and nothing is reserved.' },
  { name: 'QRCODE_NOT_AVAILABLE', endpoints: ['cash-out-qrcode'], timing: 'sync', effect: 'Answers 422 with errorCode QRCODE_NOT_AVAILABLE (final); the transaction is recorded as ERROR and nothing is reserved.' },
  { name: 'PROVIDER_REJECTED', endpoints: ['cash-out-qrcode'], timing: 'sync', effect: 'Answers 422 without a QR Code errorCode (the provider declined); the transaction is recorded as ERROR, visible through /__sandbox/transactions, and nothing is reserved.' },
  { name: 'INTERNAL_ERROR', endpoints: ['cash-out-qrcode'], timing: 'sync', effect: 'Answers 500 although the payment was really created (value + fee reserved) and settles later as usual: a client that queries /__sandbox/transactions instead of giving up finds it.' },
  { name: 'KEY_NOT_FOUND', endpoints: ['dict-pix'], timing: 'sync', effect: 'Answers 422 as if pixKey were not in the directory. Nothing is reserved.' },
])
