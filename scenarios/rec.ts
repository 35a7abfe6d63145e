import { scenarioDefinitions } from './types.js'

/**
 * Scenarios of Pix Automático (docs/api-pix.md, Pix Automático): what the payer's PSP does about a
 * recurrence, sent with POST /rec (header or armed). Each bends the simulated payer's side; the
 * recurrence, its requests and its history move as they would for a real payer's PSP.
 */
export const recScenarios = scenarioDefinitions([
  {
    name: 'REC_PAYER_PSP_REJECTS',
    endpoints: ['rec'],
    timing: 'async',
    effect: 'The payer\'s PSP rejects the authorisation: the recurrence\'s confirmation request, once received, ends REJEITADA and the recurrence REJEITADA with rejeicao codigo (AP14 unless given), whatever the payer\'s behaviour says.',
    params: [{ name: 'codigo', description: 'the rejection code', required: false, oneOf: ['AP13', 'AP14'] }],
  },
  {
    name: 'REC_PAYER_PSP_SILENT',
    endpoints: ['rec'],
    timing: 'async',
    effect: 'The payer\'s PSP never answers: a confirmation request is never RECEBIDA, and expires at its dataExpiracaoSolicitacao with its recurrence (EXPIRADA).',
  },
  {
    name: 'REC_PAYER_PSP_CANCELS',
    endpoints: ['rec'],
    timing: 'async',
    effect: 'The payer\'s PSP cancels the recurrence ms milliseconds of sandbox time after it was approved (default: a day): CANCELADA with cancelamento by PSP_PAGADOR, codigo ACCL unless given.',
    params: [
      { name: 'ms', description: 'sandbox milliseconds between approval and cancellation', required: false, integer: { min: 0, max: 31_622_400_000 } },
      { name: 'codigo', description: 'the cancellation code', required: false, oneOf: ['ACCL', 'DCSD', 'FRUD'] },
    ],
  },
])
