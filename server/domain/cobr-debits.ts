/**
 * The debit of a recurring charge's attempt as the sandbox runs it (Pix Automático, API Pix 2.9.0):
 * when on its settlement date it runs, and the words of the rejections a payer's PSP answers with.
 * Pure data and functions; docs/assumptions.md, "Pix Automático", states the choices.
 *
 * - `DEBIT_TIME`: the São Paulo time of day an attempt's debit runs on its `dataLiquidacao`;
 *   `EVENING_DEBIT_TIME`: when the payer's PSP tries it again that day after the first found no funds.
 * - `rejeicaoOf(codigo)`: a rejection (`{ codigo, descricao }`) of API Pix's list (CobRTentativas,
 *   line 7118), with the sandbox's Portuguese description.
 * - `FORCED_OUTCOMES`: what the control plane may force a charge's next debit to come to.
 * - `REJEICAO_RECUSA` and `REJEICAO_RETENTATIVA`: the codes a refused debit and a refused retry get
 *   when the scenario or the control plane names none.
 *
 * API Pix lists the codes without meaning; the descriptions of AB10, AC05, AC06, AM02, AM09, DENC and
 * DS27 follow what PSPs publish for them, the others say only that the payer's PSP rejected with that
 * code. API Pix lists no code for a lack of funds: the sandbox ends such an attempt EXPIRADA (its
 * `cobRResponse3` shows a first attempt EXPIRADA followed by a retry), not REJEITADA.
 */
import { COBR_REJEICAO_CODIGOS, type CobRRejeicao, type CobRRejeicaoCodigo } from './cobr.js'

/** The outcomes the control plane can force on a charge's next debit, whatever its scenarios and the payer's simulation say. */
export const FORCED_OUTCOMES = ['PAID', 'INSUFFICIENT_FUNDS', 'REFUSED', 'NO_ANSWER'] as const
export type ForcedOutcome = typeof FORCED_OUTCOMES[number]

/**
 * 08:00 in São Paulo, the end of the window (0h to 8h) in which the payer's PSP sends the payment order
 * of a scheduled Pix Automático debit (docs/assumptions.md, Pix Automático).
 */
export const DEBIT_TIME = '08:00'

/**
 * 18:00 in São Paulo, the start of the evening window (18h to 21h) in which the payer's PSP sends the
 * order again, the same day, when the morning found no funds: one more try of the same attempt, which
 * ends EXPIRADA only if the evening finds none either.
 */
export const EVENING_DEBIT_TIME = '18:00'

const DESCRICOES: Partial<Record<CobRRejeicaoCodigo, string>> = {
  AB10: 'Transação interrompida devido a erro no participante do usuário pagador.',
  AC05: 'Conta transacional do usuário pagador encerrada.',
  AC06: 'Conta transacional do usuário pagador bloqueada.',
  AM02: 'Valor da cobrança acima do valor máximo definido pelo usuário pagador.',
  AM09: 'Valor da cobrança diferente do valor definido na recorrência.',
  DENC: 'CPF/CNPJ do usuário pagador diferente do contido na recorrência.',
  DS27: 'Participante não cadastrado ou não habilitado no Pix Automático.',
}

/** A rejection of API Pix's list, described. */
export function rejeicaoOf (codigo: CobRRejeicaoCodigo): CobRRejeicao {
  return { codigo, descricao: DESCRICOES[codigo] ?? `Rejeitada pelo participante do usuário pagador (código ${codigo}).` }
}

/** Whether a text is a rejection code of API Pix's list. */
export function isRejeicaoCodigo (value: string): value is CobRRejeicaoCodigo {
  return (COBR_REJEICAO_CODIGOS as readonly string[]).includes(value)
}

/** A debit the payer's PSP refuses: the account is blocked, which a later retry may find otherwise. */
export const REJEICAO_RECUSA: CobRRejeicaoCodigo = 'AC06'
/** A retry the payer's PSP refuses to schedule: an error on its side. */
export const REJEICAO_RETENTATIVA: CobRRejeicaoCodigo = 'AB10'
