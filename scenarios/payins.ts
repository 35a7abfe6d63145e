import { scenarioDefinitions } from './types.js'

/**
 * Scenarios of the pay-in endpoints (cash-in, cob, refunds, MED). Each bends the real machinery:
 * the charge, the refund settlement or the MED list; none returns canned JSON that skips the ledger.
 */
export const payinScenarios = scenarioDefinitions([
  {
    name: 'PROVIDER_UNAVAILABLE',
    endpoints: ['cash-in'],
    timing: 'sync',
    effect: 'The payment provider cannot be reached: 500 in the extended shape (retry later); no charge is created.',
  },
  {
    name: 'PROVIDER_EXPIRATION_BELOW_MINIMUM',
    endpoints: ['cash-in'],
    timing: 'sync',
    effect: 'The provider refuses the expiration whatever it is: 400 with errorCode PROVIDER_EXPIRATION_BELOW_MINIMUM; no charge is created.',
  },
  {
    name: 'AUTO_PAY',
    endpoints: ['cash-in', 'cob'],
    timing: 'async',
    effect: 'A simulated payer pays the charge ms milliseconds of sandbox time after its creation (default: the settlement delay), exactly as POST /__sandbox/pix/pay would: credit, cash_in webhook, splits.',
    params: [{ name: 'ms', description: 'sandbox milliseconds between creation and payment', required: false }],
  },
  {
    name: 'PAYMENT_ERROR',
    endpoints: ['cash-in', 'cob'],
    timing: 'async',
    effect: 'When the charge is paid the provider fails the confirmation: the cash-in ends ERROR (a cob REMOVIDA_PELO_PSP), nothing is credited, and the cash_in webhook reports errorCode PAYMENT_ERROR with an errorMessage.',
  },
  {
    name: 'REFUND_FAILED',
    endpoints: ['refund-in', 'devolucao'],
    timing: 'async',
    effect: 'The refund is refused at settlement: refund-in ends ERROR, a devolução NAO_REALIZADO with motivo; the reserved amount returns to available and the refund_in webhook reports the failure.',
  },
  {
    name: 'REFUND_DELAY',
    endpoints: ['refund-in', 'devolucao'],
    timing: 'async',
    effect: 'The refund settles ms milliseconds of sandbox time after the request instead of after the usual settlement delay.',
    params: [{ name: 'ms', description: 'sandbox milliseconds before settlement', required: true }],
  },
  {
    name: 'INTERNAL_ERROR',
    endpoints: ['med-list'],
    timing: 'sync',
    effect: 'Answers 500 in the extended shape (internal error).',
  },
])
