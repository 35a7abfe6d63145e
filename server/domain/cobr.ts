/**
 * Recurring charges (`cobr`) of Pix Automático in API Pix 2.9.0: the request a receiver sends per
 * cycle (`POST /cobr`, `PUT /cobr/{txid}`), the checks that need its recurrence (deadlines, term,
 * one charge per cycle, value), its cancellation (`PATCH /cobr/{txid}`), its settlement date, and its
 * retries (`POST /cobr/{txid}/retentativa/{data}`) up to its expiry. Pure: "today" (`hoje`) is the
 * São Paulo date passed in (`saoPauloTime(clock.now()).day`, calendar.ts).
 *
 * API (for the routes, services and scheduler jobs of Pix Automático; propriedade names are API Pix's,
 * `cobr.` prefixed):
 * - `parseCobRRequest(body, { criacao })`: a creation body as received (unknown), checked alone.
 *   `{ ok: true, request }` (CobRRequest: unknown members dropped, `ajusteDiaUtil` defaulted to true)
 *   or `{ ok: false, violacoes }` in the words of the YAML's CobROperacaoInvalida list.
 * - `checkCobRAgainstRec(request, rec, outras, { hoje })`: what needs the recurrence: it is APROVADA,
 *   the due date is at least 2 days ahead and within the term, no other live charge in its cycle,
 *   the value fits the value rule. `outras`: the recurrence's other charges (status, due date).
 * - `cobrInstructionDate(dataDeVencimento, criacao)`: when the receiver's PSP sends the charge to the
 *   payer's PSP (10 days before the due date, or on creation when later): the date the payer's
 *   simulation may activate (ATIVA) or reject it.
 * - `COBR_VIOLACOES.txidEmUso(txid)`, `.contaDeOutroRecebedor()`, `.recInexistente(idRec)`: what only the
 *   store can tell.
 * - `cobrSettlementDate(cobr)`: the date of the first attempt (AGND): the due date, moved to the next
 *   business day when `ajusteDiaUtil`. `cobrCancellable(cobr, hoje)`: before that date.
 * - `parseCobRRevision(body, cobr, { hoje })`: a `PATCH` (CobRRevisada): `{ ok: true, cancelar }` or
 *   the violations.
 * - `cobrRetryWindow(cobr, proximoVencimento)`: the dates a retry may be scheduled on (after the first
 *   attempt's date, up to 7 days after the due date);
 *   `checkRetentativa(data, context)`: the violations of a retry request (none: schedule it, an NTAG
 *   attempt on `data`).
 * - `cobrAfterAttempt(context, resultado)`: what a finished attempt (PAGA, REJEITADA with its code,
 *   EXPIRADA) makes of the charge: CONCLUIDA, REJEITADA (with the attempt's rejeicao), EXPIRADA, or
 *   ATIVA waiting for a retry until a date (after which it expires).
 * - `cobrValorFits(rule, cents, pagadorMaximo?)` and `pagadorMaximoValido(rule, maximo)`: a charge's
 *   value against the recurrence's value rule and the payer's own maximum; `pagadorMaximoNoPiso(rule,
 *   maximo)`: a maximum raised to the receiver's floor.
 *
 * The rules, with the YAML's lines (bacen-pix-api-2.9.0.yaml):
 * - 286-296 (CobROperacaoInvalida, POST|PUT): infoAdicional, status, calendario, valor, recebedor,
 *   devedor by their schemas; dataDeVencimento not before the creation date; recebedor's account
 *   must be the receiver's; txid not in use; no other charge of the same idRec with a status other
 *   than REJEITADA and CANCELADA and a due date in the same cycle.
 * - 298-300 (PATCH): a charge cannot be cancelled on or after the date of its first attempt.
 * - 302-310 (retentativa): refused while an attempt is SOLICITADA or AGENDADA (in progress, active,
 *   not finished: four wordings of one rule), when an attempt already stands for that date, when
 *   `data` is not in the future, when the recurrence's policy is NAO_PERMITE.
 * - 7151 (CobRSolicitada): idRec, calendario, valor, recebedor required; 7228 (CobRBase):
 *   infoAdicional <= 140, calendario.dataDeVencimento a date, valor.original `\d{1,10}\.\d{2}`,
 *   ajusteDiaUtil a boolean, default true: the settlement date moves to the next business day when
 *   the due date is not one (local holidays by the payer's city: only national ones are known,
 *   business-days.ts); recebedor: conta <= 20 and tipoConta CORRENTE, POUPANCA or PAGAMENTO
 *   required, agencia <= 4 (DadosBancariosRecebedor, 5123). devedor: email, logradouro <= 200,
 *   cidade <= 200, uf <= 2, cep <= 8 (DadosDevedorRecorrencia, 5070; DadosComplementaresPessoa, 5031).
 * - 7048 (CobRTentativas): an attempt has dataLiquidacao, tipo AGND, NTAG or RIFL, status SOLICITADA,
 *   AGENDADA, PAGA, CANCELADA, REJEITADA or EXPIRADA, and a rejeicao; rejection codes AC05, AM09,
 *   DENC, DS27, DTED, MIDI, MSUC, NITX and RC09 reject the charge itself (line 7118).
 * - 6546, 7194 (RecConfiguracao, CobRConfiguracao): the policy NAO_PERMITE or PERMITE_3R_7D ("retentativa pós vencimento", line 6553); the
 *   charge carries its recurrence's.
 * - 6728-6740 (RecBase.valor): valorRec fixes every charge's value; valorMinimoRecebedor is the floor
 *   of the maximum a payer may set.
 *
 * Where the schema and API Pix's own request example disagree, the example wins (listed in
 * test/helpers/api-pix-schemas.ts, REQUEST_CORRECTIONS): cobRBody1's devedor.cep is "89256-140", 9 characters with its hyphen,
 * where DadosComplementaresPessoa says maxLength 8: up to 9 accepted. And CobRBase requires
 * ajusteDiaUtil while giving it a default: read as optional, true when absent.
 *
 * Rules of Pix Automático that API Pix 2.9.0 does not state, taken from the central bank's rules of
 * the arrangement and stated here (docs/assumptions.md, Pix Automático), with wordings of the
 * sandbox in the YAML's style:
 * - The receiver's PSP sends a charge's instruction to the payer's PSP 10 to 2 calendar days before
 *   its due date. The receiver may create it earlier (API Pix's own examples create charges 14 and
 *   31 days ahead, cobRResponse1 and cobRResponse3): the PSP keeps it CRIADA and sends it 10 days
 *   before. Created less than 2 days before its due date, it could not be sent in time: refused,
 *   on `cobr.calendario.dataDeVencimento`.
 * - A charge needs an APROVADA recurrence, and a due date within the recurrence's term
 *   (dataInicial to dataFinal). With a fixed value (valorRec), valor.original must equal it.
 * - PERMITE_3R_7D: at most 3 retries (NTAG), each on a different date, after the first attempt's date
 *   and up to 7 calendar days after the due date, and before the recurrence's next due date (the next
 *   cycle). Counted from the due date, as API Pix names the policy ("retentativa pós vencimento",
 *   RecConfiguracao) and as the receivers' PSPs describe it (docs/assumptions.md, Pix Automático): a
 *   first attempt moved by ajusteDiaUtil leaves fewer days. A retry date is taken as given (not moved
 *   to a business day). RIFL (a same-day resend) is no retry.
 * - A retry needs the recurrence still APROVADA: once it ended, API Pix's violation of an ended
 *   recurrence (PATCH /rec's list, line 217) refuses it.
 * - A charge expires (EXPIRADA) when its last attempt failed and no retry can follow: NAO_PERMITE,
 *   3 retries spent, or the retry window over.
 * - A payer's maximum exists only for a variable value: at least valorMinimoRecebedor when the
 *   receiver set one; a charge above it fails.
 */
import type { DeepReadonly } from './readonly.js'
import { hundredths, isRecord, RULE, schemaViolation, shown, textUpTo, type Violacao } from './api-pix-fields.js'
import { addCalendarDays, businessDayOnOrAfter, calendarDaysBetween, type IsoDate } from './business-days.js'
import { isIsoDate } from './instant.js'
import { isRecId, REC_VIOLACOES, recValueRule, type PoliticaRetentativa, type RecCalendario, type RecStatus, type RecValor, type RecValueRule } from './rec.js'
import { recCycleOf } from './rec-schedule.js'

export type { Violacao } from './api-pix-fields.js'

export const COBR_STATUSES = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const
export type CobRStatus = typeof COBR_STATUSES[number]
export const COBR_FINAL_STATUSES: readonly CobRStatus[] = ['CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA']

export const TENTATIVA_STATUSES = ['SOLICITADA', 'AGENDADA', 'PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA'] as const
export type TentativaStatus = typeof TENTATIVA_STATUSES[number]
export const TENTATIVA_FINAL_STATUSES: readonly TentativaStatus[] = ['PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA']

/** AGND: the attempt on the settlement date; NTAG: a retry after it; RIFL: a same-day resend after a failure. */
export const TENTATIVA_TIPOS = ['AGND', 'NTAG', 'RIFL'] as const
export type TentativaTipo = typeof TENTATIVA_TIPOS[number]

/** The rejection codes of a charge and of its attempts (CobRAtualizacao, CobRTentativas). */
export const COBR_REJEICAO_CODIGOS = ['AB10', 'AC05', 'AC06', 'AM02', 'AM09', 'DENC', 'DS27', 'DTED', 'DTNT', 'FBRD', 'IRNT', 'MIDI', 'MSUC', 'NIEC', 'NIPA', 'NITX', 'QUNT', 'RC09', 'UDEI'] as const
export type CobRRejeicaoCodigo = typeof COBR_REJEICAO_CODIGOS[number]
/** An attempt rejected with one of these rejects its charge (line 7118, which lists DTED twice). */
export const REJEICOES_QUE_ENCERRAM_A_COBR: readonly CobRRejeicaoCodigo[] = ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09']

export const TIPOS_CONTA = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'] as const
export type TipoConta = typeof TIPOS_CONTA[number]

export interface CobRRecebedor { conta: string, tipoConta: TipoConta, agencia?: string }
export interface CobRDevedor { email?: string, logradouro?: string, cidade?: string, uf?: string, cep?: string }

/** A recurring charge as its receiver asks for it (CobRSolicitada), checked. */
export interface CobRRequest {
  idRec: string
  infoAdicional?: string
  calendario: { dataDeVencimento: IsoDate }
  valor: { original: string }
  ajusteDiaUtil: boolean
  recebedor: CobRRecebedor
  devedor?: CobRDevedor
}

export type CobRRequestResult = { ok: true, request: CobRRequest } | { ok: false, violacoes: Violacao[] }

/** The instruction of a charge reaches the payer's PSP 10 to 2 calendar days before its due date. */
export const COBR_ANTECEDENCIA = { maxima: 10, minima: 2 } as const
/** PERMITE_3R_7D: 3 retries within 7 calendar days. */
export const RETENTATIVAS = { maximo: 3, dias: 7 } as const

/** An attempt as the rules need it (CobRTentativas' items). */
export interface TentativaResumo { dataLiquidacao: IsoDate, tipo: TentativaTipo, status: TentativaStatus }

/** The violations of CobROperacaoInvalida: the YAML's words (lines 286-310), then the sandbox's. */
export const COBR_VIOLACOES = {
  vencimentoAntesDaCriacao: (value: unknown): Violacao => ({ razao: 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobr.calendario.dataDeVencimento', ...shown(value) }),
  contaDeOutroRecebedor: (): Violacao => ({ razao: 'Os campos cobr.recebedor.conta e cobr.recebedor.agencia correspondem a uma conta que não pertence a este usuário recebedor.', propriedade: 'cobr.recebedor' }),
  txidEmUso: (txid: string): Violacao => ({ razao: 'O campo cobr.txid encontra-se em uso.', propriedade: 'cobr.txid', valor: txid }),
  mesmoCiclo: (value: string): Violacao => ({ razao: 'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.', propriedade: 'cobr.calendario.dataDeVencimento', valor: value }),
  cancelamentoTardio: (): Violacao => ({ razao: 'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.', propriedade: 'cobr.status' }),
  tentativaEmAndamento: (): Violacao => ({ razao: 'Existe uma tentativa com status SOLICITADA ou AGENDADA.', propriedade: 'cobr.tentativas' }),
  tentativaNaData: (data: string): Violacao => ({ razao: 'Existe uma tentativa vigente para a data informada.', propriedade: 'data', valor: data }),
  dataNaoFutura: (data: string): Violacao => ({ razao: 'O parâmetro data não corresponde a uma data futura.', propriedade: 'data', valor: data }),
  politicaNaoPermite: (): Violacao => ({ razao: 'A política configurada na recorrência não permite retentativa de cobrança.', propriedade: 'rec.politicaRetentativa' }),
  // Not in API Pix's lists: the rules of Pix Automático it leaves unstated, in its style.
  recInexistente: (idRec: string): Violacao => ({ razao: 'A recorrência referenciada por cobr.idRec inexiste para este usuário recebedor.', propriedade: 'cobr.idRec', valor: idRec }),
  recNaoAprovada: (idRec: string): Violacao => ({ razao: 'A recorrência referenciada por cobr.idRec não se encontra com o status APROVADA.', propriedade: 'cobr.idRec', valor: idRec }),
  vencimentoProximoDemais: (value: string): Violacao => ({ razao: 'O campo cobr.calendario.dataDeVencimento está a menos de 2 dias corridos da data de criação da cobrança.', propriedade: 'cobr.calendario.dataDeVencimento', valor: value }),
  foraDaVigencia: (value: string): Violacao => ({ razao: 'O campo cobr.calendario.dataDeVencimento está fora da vigência da recorrência (rec.calendario.dataInicial a rec.calendario.dataFinal).', propriedade: 'cobr.calendario.dataDeVencimento', valor: value }),
  valorDiferenteDoFixo: (value: string): Violacao => ({ razao: 'O campo cobr.valor.original difere do valor fixo da recorrência (rec.valor.valorRec).', propriedade: 'cobr.valor.original', valor: value }),
  cobrEncerrada: (): Violacao => ({ razao: 'A cobrança encontra-se concluída, expirada, rejeitada ou cancelada.', propriedade: 'cobr.status' }),
  dataForaDaJanela: (data: string): Violacao => ({ razao: 'O parâmetro data não está entre o dia seguinte à data prevista da primeira tentativa de liquidação e 7 dias corridos após a data de vencimento, antes do próximo ciclo da recorrência.', propriedade: 'data', valor: data }),
  retentativasEsgotadas: (): Violacao => ({ razao: 'A cobrança já recebeu as 3 retentativas que a política PERMITE_3R_7D permite.', propriedade: 'cobr.tentativas' }),
}

/** What the schema of a recurring charge asks of its members (CobRSolicitada). */
const COBR_RULE = {
  calendario: 'deve ser um objeto com dataDeVencimento, uma data AAAA-MM-DD que exista, como "2026-03-10"',
  valor: 'deve ser um objeto com original, um valor maior que zero com 2 casas decimais, como "10.00"',
  recebedor: `deve ter conta (texto de até 20 caracteres), tipoConta (${TIPOS_CONTA.join(', ')}) e, opcionalmente, agencia (até 4)`,
  devedor: 'deve ser um objeto de textos: email, logradouro (até 200 caracteres), cidade (até 200), uf (até 2), cep (até 9)',
  status: 'o status de uma cobrança é do PSP: a criação não o informa',
} as const

// --- POST /cobr, PUT /cobr/{txid} ---------------------------------------------------------------

function checkRecebedor (input: unknown): CobRRecebedor | null {
  if (!isRecord(input)) return null
  const { conta, tipoConta, agencia } = input
  if (!textUpTo(conta, 20) || !TIPOS_CONTA.includes(tipoConta as TipoConta) || (agencia !== undefined && !textUpTo(agencia, 4))) return null
  return { conta, tipoConta: tipoConta as TipoConta, ...(agencia !== undefined ? { agencia: agencia as string } : {}) }
}

/** maxLength of each member of devedor; cep 9 rather than 8, for the hyphen of the YAML's own example. */
const DEVEDOR_MEMBERS = { email: Infinity, logradouro: 200, cidade: 200, uf: 2, cep: 9 } as const

function checkDevedor (input: unknown): CobRDevedor | null {
  if (!isRecord(input)) return null
  const devedor: CobRDevedor = {}
  for (const [member, max] of Object.entries(DEVEDOR_MEMBERS) as Array<[keyof CobRDevedor, number]>) {
    const value = input[member]
    if (value === undefined) continue
    if (!textUpTo(value, max)) return null
    devedor[member] = value
  }
  return devedor
}

/** A charge's original value: `\d{1,10}\.\d{2}`, above zero. */
function originalOf (valor: unknown): string | null {
  if (!isRecord(valor)) return null
  const cents = hundredths(valor.original)
  return cents === null || cents === 0 ? null : valor.original as string
}

/**
 * A `POST /cobr` or `PUT /cobr/{txid}` body (CobRSolicitada), checked alone; `criacao` is the São
 * Paulo date of creation (today). Every violation is reported, in the order of the YAML's list.
 */
export function parseCobRRequest (body: unknown, context: { criacao: IsoDate }): CobRRequestResult {
  if (!isIsoDate(context.criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${context.criacao}`)
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'cobr', RULE.object)] }
  const out: Violacao[] = []
  if (!isRecId(body.idRec)) out.push(schemaViolation('campo', 'cobr.idRec', RULE.recId, body.idRec))
  if (body.infoAdicional !== undefined && !textUpTo(body.infoAdicional, 140)) out.push(schemaViolation('campo', 'cobr.infoAdicional', RULE.text(140), body.infoAdicional))
  // A charge's status is the PSP's to set: a creation that names one does not respect CobRSolicitada.
  if (body.status !== undefined) out.push(schemaViolation('campo', 'cobr.status', COBR_RULE.status, body.status))
  const { calendario } = body
  const vencimento = isRecord(calendario) && typeof calendario.dataDeVencimento === 'string' && isIsoDate(calendario.dataDeVencimento) ? calendario.dataDeVencimento : null
  if (vencimento === null) out.push(schemaViolation('objeto', 'cobr.calendario', COBR_RULE.calendario))
  else if (vencimento < context.criacao) out.push(COBR_VIOLACOES.vencimentoAntesDaCriacao(vencimento))
  const original = originalOf(body.valor)
  if (original === null) out.push(schemaViolation('campo', 'cobr.valor', COBR_RULE.valor))
  const recebedor = checkRecebedor(body.recebedor)
  if (recebedor === null) out.push(schemaViolation('objeto', 'cobr.recebedor', COBR_RULE.recebedor))
  const devedor = body.devedor === undefined ? undefined : checkDevedor(body.devedor)
  if (devedor === null) out.push(schemaViolation('objeto', 'cobr.devedor', COBR_RULE.devedor))
  const { ajusteDiaUtil = true } = body
  if (typeof ajusteDiaUtil !== 'boolean') out.push(schemaViolation('campo', 'cobr.ajusteDiaUtil', RULE.boolean, ajusteDiaUtil))
  if (out.length > 0 || vencimento === null || original === null || recebedor === null || devedor === null) return { ok: false, violacoes: out }
  return {
    ok: true,
    request: {
      idRec: body.idRec as string,
      ...(body.infoAdicional !== undefined ? { infoAdicional: body.infoAdicional as string } : {}),
      calendario: { dataDeVencimento: vencimento },
      valor: { original },
      ajusteDiaUtil: ajusteDiaUtil as boolean,
      recebedor,
      ...(devedor !== undefined ? { devedor } : {}),
    },
  }
}

/** The recurrence as a charge's checks need it. */
export interface RecForCobR { status: RecStatus, calendario: RecCalendario, valor: RecValor }

/**
 * The checks of a new charge that need its recurrence (`rec`) and the recurrence's other charges
 * (`outras`); `hoje` is the creation date. Empty when the charge may be created.
 */
export function checkCobRAgainstRec (request: DeepReadonly<CobRRequest>, rec: DeepReadonly<RecForCobR>, outras: ReadonlyArray<{ status: CobRStatus, dataDeVencimento: IsoDate }>, context: { hoje: IsoDate }): Violacao[] {
  const out: Violacao[] = []
  const vencimento = request.calendario.dataDeVencimento
  if (rec.status !== 'APROVADA') out.push(COBR_VIOLACOES.recNaoAprovada(request.idRec))
  const ahead = calendarDaysBetween(context.hoje, vencimento)
  // Before the creation date is parseCobRRequest's violation, in the YAML's words.
  if (ahead >= 0 && ahead < COBR_ANTECEDENCIA.minima) out.push(COBR_VIOLACOES.vencimentoProximoDemais(vencimento))
  const ciclo = recCycleOf(rec.calendario, vencimento)
  if (ciclo === null) out.push(COBR_VIOLACOES.foraDaVigencia(vencimento))
  else if (outras.some(o => o.status !== 'REJEITADA' && o.status !== 'CANCELADA' && o.dataDeVencimento >= ciclo.inicio && o.dataDeVencimento <= ciclo.fim)) out.push(COBR_VIOLACOES.mesmoCiclo(vencimento))
  if (cobrValorFits(recValueRule(rec.valor), hundredths(request.valor.original) as number) === 'DIFERENTE_DO_VALOR_FIXO') out.push(COBR_VIOLACOES.valorDiferenteDoFixo(request.valor.original))
  return out
}

/**
 * The date the receiver's PSP sends a charge's instruction to the payer's PSP: 10 days before the
 * due date, or the creation date when the charge was created later (at most 2 days before).
 */
export function cobrInstructionDate (dataDeVencimento: IsoDate, criacao: IsoDate): IsoDate {
  const earliest = addCalendarDays(dataDeVencimento, -COBR_ANTECEDENCIA.maxima)
  return criacao > earliest ? criacao : earliest
}

// --- settlement, cancellation ---------------------------------------------------------------------

export interface CobRDates { dataDeVencimento: IsoDate, ajusteDiaUtil: boolean }

/** The date of the first attempt (AGND): the due date, or the next business day when ajusteDiaUtil and it is not one. */
export function cobrSettlementDate (cobr: CobRDates): IsoDate {
  return cobr.ajusteDiaUtil ? businessDayOnOrAfter(cobr.dataDeVencimento) : cobr.dataDeVencimento
}

/** Whether a charge can still be cancelled (by either side) on `hoje`: before the date of its first attempt. */
export function cobrCancellable (cobr: CobRDates, hoje: IsoDate): boolean {
  return hoje < cobrSettlementDate(cobr)
}

/** A `PATCH /cobr/{txid}` body (CobRRevisada) on a charge: `cancelar` when it sets status CANCELADA, or the violations. */
export function parseCobRRevision (body: unknown, cobr: CobRDates & { status: CobRStatus }, context: { hoje: IsoDate }): { ok: true, cancelar: boolean } | { ok: false, violacoes: Violacao[] } {
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'cobr', RULE.object)] }
  if (body.status === undefined) return { ok: true, cancelar: false }
  if (body.status !== 'CANCELADA') return { ok: false, violacoes: [schemaViolation('campo', 'cobr.status', RULE.oneOf(['CANCELADA']), body.status)] }
  if (COBR_FINAL_STATUSES.includes(cobr.status)) return { ok: false, violacoes: [COBR_VIOLACOES.cobrEncerrada()] }
  if (!cobrCancellable(cobr, context.hoje)) return { ok: false, violacoes: [COBR_VIOLACOES.cancelamentoTardio()] }
  return { ok: true, cancelar: true }
}

// --- retries and expiry -------------------------------------------------------------------------

/** What the retry rules need of a charge and its recurrence. */
export interface CobRRetryContext {
  politicaRetentativa: PoliticaRetentativa
  /** The recurrence's status (null: it is gone): a retry needs it APROVADA. */
  recStatus: RecStatus | null
  cobr: CobRDates & { status: CobRStatus, tentativas: readonly TentativaResumo[] }
  /** The recurrence's first due date after the charge's (recNextDueDate), or null when none is left. */
  proximoVencimento: IsoDate | null
  hoje: IsoDate
}

/**
 * The dates a retry may be scheduled on: from the day after the first attempt's date up to 7 days
 * after the due date, and before the next cycle's due date. Null when none is left (a first attempt
 * moved too far, or a next due date too close).
 */
export function cobrRetryWindow (cobr: CobRDates, proximoVencimento: IsoDate | null): { primeiroDia: IsoDate, ultimoDia: IsoDate } | null {
  const primeiroDia = addCalendarDays(cobrSettlementDate(cobr), 1)
  let ultimoDia = addCalendarDays(cobr.dataDeVencimento, RETENTATIVAS.dias)
  if (proximoVencimento !== null && proximoVencimento <= ultimoDia) ultimoDia = addCalendarDays(proximoVencimento, -1)
  return ultimoDia < primeiroDia ? null : { primeiroDia, ultimoDia }
}

function retriesUsed (tentativas: readonly TentativaResumo[]): number {
  return tentativas.filter(t => t.tipo === 'NTAG' && t.status !== 'CANCELADA').length
}

/** The violations of `POST /cobr/{txid}/retentativa/{data}`; none: schedule an NTAG attempt on `data`. */
export function checkRetentativa (data: string, context: DeepReadonly<CobRRetryContext>): Violacao[] {
  if (!isIsoDate(data)) return [schemaViolation('campo', 'data', RULE.date, data)]
  const { cobr, hoje } = context
  const out: Violacao[] = []
  if (COBR_FINAL_STATUSES.includes(cobr.status)) out.push(COBR_VIOLACOES.cobrEncerrada())
  // A charge not yet ATIVA is still waiting for its first attempt to be scheduled.
  else if (cobr.status === 'CRIADA' || cobr.tentativas.some(t => !TENTATIVA_FINAL_STATUSES.includes(t.status))) out.push(COBR_VIOLACOES.tentativaEmAndamento())
  if (cobr.tentativas.some(t => t.dataLiquidacao === data && t.status !== 'CANCELADA')) out.push(COBR_VIOLACOES.tentativaNaData(data))
  if (data <= hoje) out.push(COBR_VIOLACOES.dataNaoFutura(data))
  if (context.recStatus !== 'APROVADA') out.push(REC_VIOLACOES.encerrada())
  if (context.politicaRetentativa === 'NAO_PERMITE') return [...out, COBR_VIOLACOES.politicaNaoPermite()]
  if (retriesUsed(cobr.tentativas) >= RETENTATIVAS.maximo) out.push(COBR_VIOLACOES.retentativasEsgotadas())
  const window = cobrRetryWindow(cobr, context.proximoVencimento)
  if (window === null || data < window.primeiroDia || data > window.ultimoDia) out.push(COBR_VIOLACOES.dataForaDaJanela(data))
  return out
}

export type CobRRejeicao = { codigo: CobRRejeicaoCodigo, descricao: string }

/** How an attempt ended. */
export type TentativaResultado = { status: 'PAGA' } | { status: 'REJEITADA', rejeicao: CobRRejeicao } | { status: 'EXPIRADA' }

/** What an attempt's end makes of its charge. ATIVA: a retry may still be asked for until `retentativaAte`; the day after, the charge expires. */
export type CobRAfterAttempt =
  | { status: 'CONCLUIDA' }
  | { status: 'REJEITADA', rejeicao: CobRRejeicao }
  | { status: 'EXPIRADA' }
  | { status: 'ATIVA', retentativaAte: IsoDate }

/**
 * The charge after one of its attempts ended (`context.cobr.tentativas` with that attempt already
 * finished): paid, rejected for good, waiting for a retry, or expired.
 */
export function cobrAfterAttempt (context: DeepReadonly<CobRRetryContext>, resultado: DeepReadonly<TentativaResultado>): CobRAfterAttempt {
  if (resultado.status === 'PAGA') return { status: 'CONCLUIDA' }
  if (resultado.status === 'REJEITADA' && REJEICOES_QUE_ENCERRAM_A_COBR.includes(resultado.rejeicao.codigo)) return { status: 'REJEITADA', rejeicao: { ...resultado.rejeicao } }
  const { cobr, hoje } = context
  const window = cobrRetryWindow(cobr, context.proximoVencimento)
  const canRetry = context.politicaRetentativa === 'PERMITE_3R_7D' && retriesUsed(cobr.tentativas) < RETENTATIVAS.maximo &&
    window !== null && window.ultimoDia > hoje
  return canRetry ? { status: 'ATIVA', retentativaAte: window.ultimoDia } : { status: 'EXPIRADA' }
}

// --- value --------------------------------------------------------------------------------------

/** A charge's value against the recurrence's rule and, when the payer set one, the payer's maximum (cents). */
export function cobrValorFits (rule: RecValueRule, cents: number, pagadorMaximo?: number): 'OK' | 'DIFERENTE_DO_VALOR_FIXO' | 'ACIMA_DO_MAXIMO_DO_PAGADOR' {
  if (rule.kind === 'FIXO') return cents === rule.cents ? 'OK' : 'DIFERENTE_DO_VALOR_FIXO'
  return pagadorMaximo !== undefined && cents > pagadorMaximo ? 'ACIMA_DO_MAXIMO_DO_PAGADOR' : 'OK'
}

/** Whether a payer may set `maximo` (cents) on a recurrence: a variable value only, at least the receiver's floor. */
export function pagadorMaximoValido (rule: RecValueRule, maximo: number): boolean {
  if (rule.kind === 'FIXO' || !Number.isSafeInteger(maximo) || maximo < 1) return false
  return rule.kind === 'LIVRE' || maximo >= rule.cents
}

/**
 * The maximum a payer's PSP records for `maximo` (cents) asked for: never below the receiver's floor
 * (RecBase.valor.valorMinimoRecebedor: the payer's maximum "não poderá ser inferior ao piso"), so a
 * simulated payer set lower approves at the floor.
 */
export function pagadorMaximoNoPiso (rule: RecValueRule, maximo: number): number {
  return rule.kind === 'MINIMO' ? Math.max(maximo, rule.cents) : maximo
}
