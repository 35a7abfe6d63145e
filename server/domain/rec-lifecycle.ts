/**
 * The lives of Pix Automático's records in API Pix 2.9.0, as pure transition tables: a recurrence
 * (Rec), a confirmation request (SolicRec), a recurring charge (CobR) and a charge's attempt
 * (tentativa). Each says which status may follow which, and who may cause it; a final status has no
 * way out. The closing details a final status carries (`encerramento`) are checked with the move.
 *
 * Who acts (`Ator`, the `solicitante` of API Pix's cancellations):
 * - USUARIO_RECEBEDOR: the receiver, through the API (`PATCH /rec`, `/solicrec`, `/cobr`).
 * - PSP_RECEBEDOR: the sandbox's own jobs on the virtual clock (sending a request, expiries).
 * - PSP_PAGADOR and USUARIO_PAGADOR: the payer's PSP and the payer, as the sandbox simulates them
 *   (answers to requests and charges, settlement, cancellations from the payer's side).
 *
 * API (for the services, the payer's simulation and the scheduler jobs):
 * - `REC_LIFE`, `SOLICREC_LIFE`, `COBR_LIFE`, `TENTATIVA_LIFE`: the tables (`Life`).
 * - `canMove(life, from, to, by)`, `isFinal(life, status)`.
 * - `moveRec(from, to, by, encerramento?)`, `moveCobR(...)`, `moveSolicRec(from, to, by)`,
 *   `moveTentativa(from, to, by, rejeicao?)`: `{ ok: true, status, encerramento? }` when the move is
 *   allowed and the closing details are the ones the status carries (REJEITADA: a rejeicao with a
 *   code of its list; CANCELADA: a cancelamento whose solicitante is `by`; none otherwise), else
 *   `{ ok: false, reason: 'TRANSICAO' | 'ENCERRAMENTO' }`.
 * - `CANCELAMENTO.rec[by]`, `CANCELAMENTO.cobr[by]`: the cancellation the sandbox records when the
 *   receiver or the payer cancels; `cancelamentoPorRecEncerrada(rec)`: a charge's, when its
 *   recurrence ended (cancelled, expired or rejected).
 * - `recAfterSolicRec(status)`: what a request's end does to its recurrence (journey 1).
 * - `cobrsToCancelWithRec(cobrs)`: the charges an ended recurrence takes with it.
 *
 * The rules, with the YAML's lines (bacen-pix-api-2.9.0.yaml):
 * - 6532 (RecStatus): CRIADA, APROVADA, REJEITADA, EXPIRADA, CANCELADA. 217: an EXPIRADA, CANCELADA
 *   or REJEITADA recurrence is no longer revised (final). 6403 (RecRevisada): the receiver may set
 *   CANCELADA. 6584 (RecEncerramento): a rejeicao (codes AP13, AP14) or a cancelamento (solicitante
 *   PSP_PAGADOR, USUARIO_PAGADOR, PSP_RECEBEDOR or USUARIO_RECEBEDOR; codes ACCL, CPCL, DCSD, ERSL,
 *   FRUD, PCFD, SLCR, SLDB), descricao <= 400.
 * - 6787 (SolicRecStatus): CRIADA, ENVIADA, RECEBIDA, REJEITADA, ACEITA, EXPIRADA, CANCELADA. 267:
 *   the receiver cancels only CRIADA, ENVIADA or RECEBIDA. solicRecResponse2 (line 3821) goes
 *   CRIADA, ENVIADA, REJEITADA: the payer may answer before the request is marked RECEBIDA.
 * - 7205 (CobRStatus): CRIADA, ATIVA, CONCLUIDA, EXPIRADA, REJEITADA, CANCELADA. 300: the receiver
 *   cancels only before the first attempt's date (cobr.ts checks the date). 6972 (encerramento): a
 *   cancelamento (codes ACCT, BLCK, CCLD, FAIL, OTHR, SLBD, SLCR) or a rejeicao (the 19 codes of
 *   cobr.ts).
 * - 7048 (CobRTentativas): SOLICITADA, AGENDADA, PAGA, CANCELADA, REJEITADA, EXPIRADA, a rejeicao on
 *   a rejected attempt. cobRResponse3 (line 3103): an attempt EXPIRADA, then a retry AGENDADA on a
 *   charge still ATIVA.
 * - recResponse5 (line 3599) and cobRResponse4 (line 3140): SLCR "Cancelamento solicitado pelo usuário recebedor" on a
 *   recurrence, "Cancelamento de agendamento solicitado pelo usuário recebedor" on a charge.
 *
 * Decisions where API Pix says no more (docs/assumptions.md, Pix Automático):
 * - Rec: the payer approves or rejects a CRIADA recurrence (the payer's PSP may reject too); the
 *   receiver cancels a CRIADA or APROVADA one, and either side's user or PSP an APROVADA one. The
 *   sandbox expires a CRIADA recurrence whose confirmation request expired (journey 1) or whose
 *   term (dataFinal) ended, and an APROVADA one after its dataFinal.
 * - SolicRec: ACEITA approves the recurrence (JORNADA_1), REJEITADA rejects it, EXPIRADA expires it;
 *   a CANCELADA request leaves the recurrence CRIADA, for another request.
 * - CobR: the payer's PSP activates (schedules) a CRIADA charge or rejects it; a payment concludes an
 *   ATIVA one, a rejection with a code that ends the charge rejects it; the sandbox expires a charge
 *   no attempt can follow any more (cobr.ts `cobrAfterAttempt`). Either side cancels a charge before
 *   the first attempt's date. A recurrence that ends (cancelled, expired, rejected) ends its
 *   authorization: every charge of it not yet settled (CRIADA or ATIVA, whatever its date, a retry
 *   waiting or scheduled) is cancelled with it, its pending attempts too, so no money moves under it.
 * - Codes API Pix lists without meaning: the payer's cancellations use SLDB (recurrence) and SLBD
 *   (charge), read as the debtor's (devedor) counterpart of SLCR, the creditor's. A charge cancelled
 *   because its recurrence ended is CCLD, by the side that cancelled the recurrence (the receiver's
 *   PSP when it expired or was rejected): the charge's cancellation codes (line 6998) list in the
 *   order of the reasons PSPs publish for cancelling a Pix Automático instruction, the third being the
 *   authorization's cancellation (docs/assumptions.md, Pix Automático). AP13/AP14 and the charge's
 *   rejection codes are chosen by whoever rejects (the payer's simulation, a scenario).
 */
import { COBR_REJEICAO_CODIGOS, type CobRRejeicaoCodigo, type CobRStatus, type TentativaStatus } from './cobr.js'
import { ativacaoAprovada, type RecAtivacao, type RecStatus } from './rec.js'
import {
  ATORES, REC_CANCELAMENTO_CODIGOS, REC_REJEICAO_CODIGOS, type Ator, type Cancelamento, type RecEncerramento, type Rejeicao, type SolicRecStatus,
} from './rec-types.js'

export type { Ator, Cancelamento, Rejeicao, RecEncerramento } from './rec-types.js'
export { REC_REJEICAO_CODIGOS, REC_CANCELAMENTO_CODIGOS } from './rec-types.js'
const ANYONE: readonly Ator[] = ATORES

/** A record's life: its first status, its final ones, and each allowed move with who may make it. */
export interface Life<S extends string> {
  initial: S
  finals: readonly S[]
  moves: ReadonlyArray<{ from: readonly S[], to: S, by: readonly Ator[] }>
}

export const REC_LIFE: Life<RecStatus> = {
  initial: 'CRIADA',
  finals: ['REJEITADA', 'EXPIRADA', 'CANCELADA'],
  moves: [
    { from: ['CRIADA'], to: 'APROVADA', by: ['USUARIO_PAGADOR'] },
    { from: ['CRIADA'], to: 'REJEITADA', by: ['USUARIO_PAGADOR', 'PSP_PAGADOR'] },
    { from: ['CRIADA', 'APROVADA'], to: 'EXPIRADA', by: ['PSP_RECEBEDOR'] },
    { from: ['CRIADA'], to: 'CANCELADA', by: ['USUARIO_RECEBEDOR', 'PSP_RECEBEDOR'] },
    { from: ['APROVADA'], to: 'CANCELADA', by: ANYONE },
  ],
}

export const SOLICREC_LIFE: Life<SolicRecStatus> = {
  initial: 'CRIADA',
  finals: ['REJEITADA', 'ACEITA', 'EXPIRADA', 'CANCELADA'],
  moves: [
    { from: ['CRIADA'], to: 'ENVIADA', by: ['PSP_RECEBEDOR'] },
    { from: ['ENVIADA'], to: 'RECEBIDA', by: ['PSP_PAGADOR'] },
    { from: ['ENVIADA', 'RECEBIDA'], to: 'ACEITA', by: ['USUARIO_PAGADOR'] },
    { from: ['ENVIADA', 'RECEBIDA'], to: 'REJEITADA', by: ['USUARIO_PAGADOR', 'PSP_PAGADOR'] },
    { from: ['CRIADA', 'ENVIADA', 'RECEBIDA'], to: 'EXPIRADA', by: ['PSP_RECEBEDOR', 'PSP_PAGADOR'] },
    { from: ['CRIADA', 'ENVIADA', 'RECEBIDA'], to: 'CANCELADA', by: ['USUARIO_RECEBEDOR'] },
  ],
}

export const COBR_LIFE: Life<CobRStatus> = {
  initial: 'CRIADA',
  finals: ['CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'],
  moves: [
    { from: ['CRIADA'], to: 'ATIVA', by: ['PSP_PAGADOR'] },
    { from: ['CRIADA', 'ATIVA'], to: 'REJEITADA', by: ['PSP_PAGADOR'] },
    { from: ['ATIVA'], to: 'CONCLUIDA', by: ['PSP_PAGADOR'] },
    { from: ['CRIADA', 'ATIVA'], to: 'EXPIRADA', by: ['PSP_RECEBEDOR'] },
    { from: ['CRIADA', 'ATIVA'], to: 'CANCELADA', by: ANYONE },
  ],
}

export const TENTATIVA_LIFE: Life<TentativaStatus> = {
  initial: 'SOLICITADA',
  finals: ['PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA'],
  moves: [
    { from: ['SOLICITADA'], to: 'AGENDADA', by: ['PSP_PAGADOR'] },
    { from: ['AGENDADA'], to: 'PAGA', by: ['PSP_PAGADOR'] },
    { from: ['SOLICITADA', 'AGENDADA'], to: 'REJEITADA', by: ['PSP_PAGADOR'] },
    { from: ['SOLICITADA', 'AGENDADA'], to: 'EXPIRADA', by: ['PSP_PAGADOR', 'PSP_RECEBEDOR'] },
    { from: ['SOLICITADA', 'AGENDADA'], to: 'CANCELADA', by: ANYONE },
  ],
}

export function canMove<S extends string> (life: Life<S>, from: S, to: S, by: Ator): boolean {
  return life.moves.some(m => m.to === to && m.from.includes(from) && m.by.includes(by))
}

export function isFinal<S extends string> (life: Life<S>, status: S): boolean {
  return life.finals.includes(status)
}

// --- closing details ----------------------------------------------------------------------------

export const COBR_CANCELAMENTO_CODIGOS = ['ACCT', 'BLCK', 'CCLD', 'FAIL', 'OTHR', 'SLBD', 'SLCR'] as const

export type CobREncerramento =
  | { rejeicao: Rejeicao<CobRRejeicaoCodigo> }
  | { cancelamento: Cancelamento<typeof COBR_CANCELAMENTO_CODIGOS[number]> }

export type Moved<S, E> = { ok: true, status: S, encerramento?: E } | { ok: false, reason: 'TRANSICAO' | 'ENCERRAMENTO' }

const DESCRICAO_MAX = 400

function validRejeicao (value: unknown, codes: readonly string[]): boolean {
  const r = value as Rejeicao<string> | undefined
  return r !== undefined && codes.includes(r.codigo) && typeof r.descricao === 'string' && r.descricao.length <= DESCRICAO_MAX
}

function validCancelamento (value: unknown, codes: readonly string[], by: Ator): boolean {
  const c = value as Cancelamento<string> | undefined
  return c !== undefined && c.solicitante === by && validRejeicao(c, codes)
}

/** The codes of a record's closing details; null where the status carries none. */
interface ClosingCodes { rejeicao: readonly string[] | null, cancelamento: readonly string[] | null }

/** Whether the closing details fit the status reached: REJEITADA a rejeicao, CANCELADA a cancelamento by `by`, where the record has them; nothing otherwise. */
function closingFits (to: string, by: Ator, encerramento: object | undefined, codes: ClosingCodes): boolean {
  const e = encerramento as { rejeicao?: unknown, cancelamento?: unknown } | undefined
  if (to === 'REJEITADA' && codes.rejeicao !== null) return e !== undefined && e.cancelamento === undefined && validRejeicao(e.rejeicao, codes.rejeicao)
  if (to === 'CANCELADA' && codes.cancelamento !== null) return e !== undefined && e.rejeicao === undefined && validCancelamento(e.cancelamento, codes.cancelamento, by)
  return e === undefined
}

function move<S extends string, E extends object> (life: Life<S>, from: S, to: S, by: Ator, encerramento: E | undefined, codes: ClosingCodes): Moved<S, E> {
  if (!canMove(life, from, to, by)) return { ok: false, reason: 'TRANSICAO' }
  if (!closingFits(to, by, encerramento, codes)) return { ok: false, reason: 'ENCERRAMENTO' }
  return encerramento === undefined ? { ok: true, status: to } : { ok: true, status: to, encerramento }
}

export function moveRec (from: RecStatus, to: RecStatus, by: Ator, encerramento?: RecEncerramento): Moved<RecStatus, RecEncerramento> {
  return move(REC_LIFE, from, to, by, encerramento, { rejeicao: REC_REJEICAO_CODIGOS, cancelamento: REC_CANCELAMENTO_CODIGOS })
}

export function moveCobR (from: CobRStatus, to: CobRStatus, by: Ator, encerramento?: CobREncerramento): Moved<CobRStatus, CobREncerramento> {
  return move(COBR_LIFE, from, to, by, encerramento, { rejeicao: COBR_REJEICAO_CODIGOS, cancelamento: COBR_CANCELAMENTO_CODIGOS })
}

/** A request carries no closing details. */
export function moveSolicRec (from: SolicRecStatus, to: SolicRecStatus, by: Ator): Moved<SolicRecStatus, never> {
  return move<SolicRecStatus, never>(SOLICREC_LIFE, from, to, by, undefined, { rejeicao: null, cancelamento: null })
}

/** An attempt carries a rejeicao when REJEITADA, nothing otherwise (its cancellation has no details in API Pix). */
export function moveTentativa (from: TentativaStatus, to: TentativaStatus, by: Ator, rejeicao?: Rejeicao<CobRRejeicaoCodigo>): Moved<TentativaStatus, { rejeicao: Rejeicao<CobRRejeicaoCodigo> }> {
  return move(TENTATIVA_LIFE, from, to, by, rejeicao === undefined ? undefined : { rejeicao }, { rejeicao: COBR_REJEICAO_CODIGOS, cancelamento: null })
}

/** The cancellations the sandbox records when the receiver (API) or the payer (simulation) cancels. */
export const CANCELAMENTO = {
  rec: {
    USUARIO_RECEBEDOR: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' },
    USUARIO_PAGADOR: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB', descricao: 'Cancelamento solicitado pelo usuário pagador' },
  },
  cobr: {
    USUARIO_RECEBEDOR: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento de agendamento solicitado pelo usuário recebedor' },
    USUARIO_PAGADOR: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLBD', descricao: 'Cancelamento de agendamento solicitado pelo usuário pagador' },
  },
} as const satisfies {
  rec: Record<'USUARIO_RECEBEDOR' | 'USUARIO_PAGADOR', Cancelamento<typeof REC_CANCELAMENTO_CODIGOS[number]>>
  cobr: Record<'USUARIO_RECEBEDOR' | 'USUARIO_PAGADOR', Cancelamento<typeof COBR_CANCELAMENTO_CODIGOS[number]>>
}

/** Why a charge's recurrence no longer authorizes it, in the words of its cancellation. */
const POR_REC_ENCERRADA = {
  CANCELADA: 'Cancelamento de agendamento em razão do cancelamento da recorrência',
  EXPIRADA: 'Cancelamento de agendamento em razão do fim da vigência da recorrência',
  REJEITADA: 'Cancelamento de agendamento em razão da rejeição da recorrência',
  AUSENTE: 'Cancelamento de agendamento: a recorrência não está aprovada',
} as const

/**
 * A charge's cancellation when its recurrence ended (or is not APROVADA at all): CCLD, by whoever
 * cancelled the recurrence, else by the receiver's PSP, which holds the charge.
 */
export function cancelamentoPorRecEncerrada (rec: { status: RecStatus, encerramento?: RecEncerramento } | null): Cancelamento<typeof COBR_CANCELAMENTO_CODIGOS[number]> {
  const cancelamento = rec?.encerramento !== undefined && 'cancelamento' in rec.encerramento ? rec.encerramento.cancelamento : undefined
  const motivo = rec?.status === 'CANCELADA' || rec?.status === 'EXPIRADA' || rec?.status === 'REJEITADA' ? rec.status : 'AUSENTE'
  return { solicitante: cancelamento?.solicitante ?? 'PSP_RECEBEDOR', codigo: 'CCLD', descricao: POR_REC_ENCERRADA[motivo] }
}

/** The charges an ended recurrence takes with it: every one not yet settled (CRIADA or ATIVA), whatever its date. */
export function cobrsToCancelWithRec<C extends { status: CobRStatus }> (cobrs: readonly C[]): C[] {
  return cobrs.filter(c => c.status === 'CRIADA' || c.status === 'ATIVA')
}

/** What the end of a confirmation request does to its recurrence (journey 1); null: it stays as it is. */
export function recAfterSolicRec (status: SolicRecStatus): { status: 'APROVADA', ativacao: RecAtivacao } | { status: 'REJEITADA' | 'EXPIRADA' } | null {
  if (status === 'ACEITA') return { status: 'APROVADA', ativacao: ativacaoAprovada('JORNADA_1') }
  if (status === 'REJEITADA' || status === 'EXPIRADA') return { status }
  return null
}
