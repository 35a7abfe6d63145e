import { COBR_REJEICAO_CODIGOS, REJEICOES_QUE_ENCERRAM_A_COBR } from '../server/domain/cobr.js'
import { DEBIT_TIME, EVENING_DEBIT_TIME, REJEICAO_RECUSA, REJEICAO_RETENTATIVA } from '../server/domain/cobr-debits.js'
import { scenarioDefinitions, type ScenarioParam } from './types.js'

/**
 * Scenarios of API Pix's recurring charges (docs/api-pix.md, "Recurring charges"): what the payer's PSP
 * does about a debit. Each bends the real machinery of CobRService: the attempt's outcome on its date,
 * the charge's status after it, the credit (none unless paid) and the `/webhookcobr` notifications. On
 * the creation of a charge they bend its first attempt (AGND); on a retry, that retry (NTAG).
 */
const codigo = (fallback: string): ScenarioParam => ({
  name: 'codigo',
  description: `the rejection code, one of API Pix's (default ${fallback}); ${REJEICOES_QUE_ENCERRAM_A_COBR.join(', ')} reject the charge itself`,
  required: false,
  oneOf: COBR_REJEICAO_CODIGOS,
})

export const cobrScenarios = scenarioDefinitions([
  {
    name: 'COBR_INSUFFICIENT_FUNDS',
    endpoints: ['cobr', 'cobr-retry'],
    timing: 'async',
    effect: `The payer's account lacks the funds when the attempt's debit runs (its date, ${DEBIT_TIME} in São Paulo) and again at its evening attempt (${EVENING_DEBIT_TIME}): the attempt ends EXPIRADA then and nothing is credited; the charge stays ATIVA for a retry while its recurrence's policy (PERMITE_3R_7D) and window allow one, else it ends EXPIRADA.`,
  },
  {
    name: 'COBR_DEBIT_REFUSED',
    endpoints: ['cobr', 'cobr-retry'],
    timing: 'async',
    effect: 'The payer\'s PSP refuses the attempt\'s debit on its date: the attempt ends REJEITADA with the code, nothing is credited; a code that ends a charge rejects the charge (REJEITADA, encerramento.rejeicao), any other leaves it ATIVA for a retry or EXPIRADA as a lack of funds does.',
    params: [codigo(REJEICAO_RECUSA)],
  },
  {
    name: 'COBR_NO_ANSWER',
    endpoints: ['cobr', 'cobr-retry'],
    timing: 'async',
    effect: 'The payer\'s PSP never answers the attempt\'s debit: the attempt stays AGENDADA through its date and ends EXPIRADA at midnight in São Paulo; the charge then waits for a retry or expires.',
  },
  {
    name: 'COBR_RETRY_REFUSED',
    endpoints: ['cobr-retry'],
    timing: 'sync',
    effect: 'The payer\'s PSP refuses to schedule the retry: the answer (201) shows the new attempt REJEITADA with the code, and the charge follows as after a refused debit.',
    params: [codigo(REJEICAO_RETENTATIVA)],
  },
])
