/**
 * Recurrences (`rec`) of Pix Automático in API Pix 2.9.0: the terms a receiver sends in `POST /rec`
 * and revises in `PATCH /rec/{idRec}`, the value rule they set, the id a recurrence gets, and what
 * its `ativacao` says once a journey approves it. Pure: dates are São Paulo calendar days passed in
 * (`saoPauloTime(clock.now()).day`, calendar.ts); amounts stay API Pix's `"123.45"` strings, read in
 * cents where compared.
 *
 * API (for the routes and services of Pix Automático; propriedade names are API Pix's, `rec.` prefixed):
 * - `parseRecTerms(body, { criacao, convenioAceito? })`: a `POST /rec` body as received (unknown),
 *   checked. `{ ok: true, terms }` (RecTerms: unknown and read-only members dropped, `valor` `{}` when
 *   the value is free) or `{ ok: false, violacoes }`, every violation found, in the words of the
 *   YAML's RecOperacaoInvalida list. `criacao` is today's São Paulo date; `convenioAceito` says
 *   whether the receiver's PSP accepts a `recebedor.convenio` (every one, when absent).
 * - `reviseRecTerms(current, body, { status, criacao })`: a `PATCH /rec/{idRec}` (RecRevisada) on a
 *   recurrence in `status`, created on `criacao`. `{ ok: true, terms, cancelar }`: the revised terms
 *   and whether the body asks for `status: CANCELADA` (the transition itself is rec-lifecycle.ts's);
 *   or the violations.
 * - `REC_VIOLACOES.locInexistente(loc)`, `.locEmUso(loc)`: the two `loc` violations only the store
 *   can tell, in the YAML's words, for the service to add.
 * - `recValueRule(valor)`: FIXO (valorRec), MINIMO (valorMinimoRecebedor) or LIVRE, in cents.
 * - `formatRecId(...)`, `isRecId(s)`, `recIdPolitica(idRec)`: the id RecId describes.
 * - `ativacaoAprovada(jornada, txid?)`: the `ativacao` of an approved recurrence;
 *   `AGUARDANDO_DEFINICAO` is its `tipoJornada` before. `jornadaDoQR(cobranca)`: the journey of the
 *   QR code `GET /rec/{idRec}?txid=` composes (RecCompleta.dadosQR's table).
 *
 * The rules, with the YAML's lines (bacen-pix-api-2.9.0.yaml):
 * - 196-209 (RecOperacaoInvalida, POST): vinculo by its schema; dataInicial not before the creation
 *   date; dataFinal not before dataInicial; periodicidade, valor, valorRec, valorMinimoRecebedor,
 *   recebedor, politicaRetentativa by their schemas; not both valorRec and valorMinimoRecebedor; loc
 *   must exist and be free; a convenio the receiver's PSP does not accept is refused.
 * - 211-220 (PATCH): dataInicial not before the creation date; loc must exist and be free; status by
 *   its schema (RecRevisada, 6403: only CANCELADA); nothing on an EXPIRADA, CANCELADA or REJEITADA
 *   recurrence; loc and dataInicial change only while CRIADA; dadosJornada.txid not while REJEITADA or
 *   CANCELADA.
 * - 6670-6740 (RecBase): vinculo requires contrato (<= 35) and devedor, a person (cpf, nome <= 140,
 *   4981) or a company (cnpj `^[0-9A-Z]{14}$`, nome <= 140, 4996), exactly one; objeto <= 35.
 *   calendario requires dataInicial and periodicidade (SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL,
 *   ANUAL); dataFinal is optional (open-ended authorisation). valor: valorRec for a fixed value,
 *   valorMinimoRecebedor a floor for the payer's own maximum, neither for a free value.
 * - 6546 (RecConfiguracao): politicaRetentativa NAO_PERMITE or PERMITE_3R_7D, required.
 * - 6353 (RecSolicitada): recebedor.convenio <= 60; loc a location id (int64, 4927);
 *   ativacao.dadosJornada.txid a TxId (`[a-zA-Z0-9]{26,35}`, 4818) (RecAtivacaoSolicitada, 6512).
 * - 6648 (RecId): `R` + `R` (retries allowed) or `N` + 8 characters of the agent (ISPB) + `yyyyMMdd`
 *   of creation + 11 alphanumeric characters, 29 in all.
 * - 6475 (RecAtivacao): tipoJornada JORNADA_1 to 4, AGUARDANDO_DEFINICAO before activation;
 *   dadosJornada.txid is required for JORNADA_3 and removed by the receiver's PSP for 1, 2 and 4.
 * - 6243-6275 (RecCompleta.dadosQR): idRec alone composes JORNADA_2, with a cob's txid JORNADA_3,
 *   with a cobv's txid JORNADA_4.
 *
 * Where the schema and API Pix's own request examples disagree, the examples win (each listed in
 * test/helpers/api-pix-schemas.ts, REQUEST_CORRECTIONS):
 * - RecBase requires `idRec` and `retentativa`: the receiver's PSP makes the id (no example sends
 *   it) and `retentativa` is no property (RecConfiguracao requires `politicaRetentativa`).
 * - RecRevisada's devedor is `oneOf` two identical `{ nome }` schemas, which nothing can match
 *   exactly once; recBody3 sends `{ nome }`. Read as one `{ nome }` schema.
 * - cpf patterns are written `/^\d{11}$/` (slashes included); read as `^\d{11}$`. Check digits are
 *   not checked: recBody1's and recBody2's CPFs have wrong ones.
 *
 * Decisions where API Pix is silent (docs/assumptions.md, Pix Automático):
 * - Violations the YAML does not list use its generic wording for the member ("O objeto rec.X não
 *   respeita o _schema_", "O campo rec.X ..."), followed by the rule the member breaks.
 * - A fixed valorRec of 0.00 is refused (schema wording): no charge could follow it.
 * - In a PATCH, loc, dataInicial and txid count as changed only when they differ from the current
 *   ones, so a client resending an unchanged value on an APROVADA recurrence is not refused.
 *   Unknown members (contrato, objeto, cpf...) are ignored, as in every check of this dialect.
 * - A PATCH that cancels may revise in the same body; the cancellation is applied after.
 */
import type { DeepReadonly } from './readonly.js'
import { isRecord, RULE, schemaViolation, shown, hundredths, textUpTo, type Violacao } from './api-pix-fields.js'
import type { IsoDate } from './business-days.js'
import { isIsoDate } from './instant.js'
import {
  PERIODICIDADES, POLITICAS_RETENTATIVA, type Jornada, type Periodicidade, type PoliticaRetentativa, type RecAtivacao, type RecCalendario,
  type RecDevedor, type RecStatus, type RecTerms, type RecValor, type RecVinculo,
} from './rec-types.js'

export type { Violacao } from './api-pix-fields.js'

export { PERIODICIDADES, POLITICAS_RETENTATIVA, REC_STATUSES } from './rec-types.js'
export type { Periodicidade, PoliticaRetentativa, RecStatus, RecDevedor, RecVinculo, RecCalendario, RecValor, RecTerms } from './rec-types.js'

export type RecTermsResult = { ok: true, terms: RecTerms } | { ok: false, violacoes: Violacao[] }
export type RecRevisionResult = { ok: true, terms: RecTerms, cancelar: boolean } | { ok: false, violacoes: Violacao[] }

export const REC_FINAL_STATUSES: readonly RecStatus[] = ['REJEITADA', 'EXPIRADA', 'CANCELADA']

const CPF = /^\d{11}$/
const CNPJ = /^[0-9A-Z]{14}$/
const TXID = /^[a-zA-Z0-9]{26,35}$/

/** The violations of RecOperacaoInvalida, in the YAML's words (lines 196-220). */
export const REC_VIOLACOES = {
  dataInicialAntesDaCriacao: (value: unknown): Violacao => ({ razao: 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', propriedade: 'rec.calendario.dataInicial', ...shown(value) }),
  dataFinalAntesDaInicial: (value: unknown): Violacao => ({ razao: 'O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.', propriedade: 'rec.calendario.dataFinal', ...shown(value) }),
  ambosOsValores: (): Violacao => ({ razao: 'Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.', propriedade: 'rec.valor' }),
  locInexistente: (loc: number): Violacao => ({ razao: 'O location referenciado por rec.loc inexiste.', propriedade: 'rec.loc', valor: String(loc) }),
  locEmUso: (loc: number): Violacao => ({ razao: 'O location referenciado por rec.loc já está sendo utilizado por outra recorrência.', propriedade: 'rec.loc', valor: String(loc) }),
  convenioRecusado: (value: string): Violacao => ({ razao: 'O valor do campo rec.recebedor.convenio não é aceito pelo PSP Recebedor.', propriedade: 'rec.recebedor.convenio', valor: value }),
  encerrada: (): Violacao => ({ razao: 'A recorrência encontra-se expirada, cancelada ou rejeitada.', propriedade: 'rec.status' }),
  locSomenteCriada: (): Violacao => ({ razao: 'O campo rec.loc somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.', propriedade: 'rec.loc' }),
  dataInicialSomenteCriada: (): Violacao => ({ razao: 'O campo rec.calendario.dataInicial somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.', propriedade: 'rec.calendario.dataInicial' }),
  // The YAML names the member `rec.dadosJornada.txid`; it lives under `ativacao`, which propriedade says.
  txidRejeitadaOuCancelada: (): Violacao => ({ razao: 'O campo rec.dadosJornada.txid não pode ser alterado quando a recorrência apresentar-se com o status REJEITADA ou CANCELADA.', propriedade: 'rec.ativacao.dadosJornada.txid' }),
}

/** What the schemas of a recurrence ask of its members (RecSolicitada, RecRevisada). */
const REC_RULE = {
  vinculo: 'deve ter contrato (texto de até 35 caracteres), objeto opcional (até 35) e devedor com nome (até 140) e cpf (11 dígitos) ou cnpj (14 dígitos ou letras maiúsculas), não os dois',
  vinculoRevisado: 'deve ser um objeto; devedor, quando presente, com nome (texto de até 140 caracteres)',
  calendario: 'deve ser um objeto com dataInicial, periodicidade e, opcionalmente, dataFinal',
  valor: 'deve ser um objeto com valorRec ou valorMinimoRecebedor',
  recebedor: 'deve ser um objeto; convenio, quando presente, um texto de até 60 caracteres',
  ativacao: 'deve ser um objeto, vazio ou com dadosJornada.txid (26 a 35 letras e dígitos)',
} as const

// --- POST /rec ----------------------------------------------------------------------------------

function checkDevedor (input: unknown): RecDevedor | null {
  if (!isRecord(input) || !textUpTo(input.nome, 140)) return null
  const { cpf, cnpj, nome } = input
  // oneOf PessoaFisicaRecorrencia / PessoaJuridicaRecorrencia: exactly one document.
  if (cpf !== undefined && cnpj !== undefined) return null
  if (typeof cpf === 'string' && CPF.test(cpf)) return { cpf, nome }
  if (typeof cnpj === 'string' && CNPJ.test(cnpj)) return { cnpj, nome }
  return null
}

function checkVinculo (input: unknown, out: Violacao[]): RecVinculo | null {
  const devedor = isRecord(input) ? checkDevedor(input.devedor) : null
  if (!isRecord(input) || devedor === null || !textUpTo(input.contrato, 35) || (input.objeto !== undefined && !textUpTo(input.objeto, 35))) {
    out.push(schemaViolation('objeto', 'rec.vinculo', REC_RULE.vinculo))
    return null
  }
  return { ...(input.objeto !== undefined ? { objeto: input.objeto as string } : {}), contrato: input.contrato, devedor }
}

function checkCalendario (input: unknown, criacao: IsoDate, out: Violacao[]): RecCalendario | null {
  if (!isRecord(input)) { out.push(schemaViolation('objeto', 'rec.calendario', REC_RULE.calendario)); return null }
  const { dataInicial, dataFinal, periodicidade } = input
  const before = out.length
  const inicial = typeof dataInicial === 'string' && isIsoDate(dataInicial) ? dataInicial : null
  if (inicial === null) out.push(schemaViolation('campo', 'rec.calendario.dataInicial', RULE.date, dataInicial))
  else if (inicial < criacao) out.push(REC_VIOLACOES.dataInicialAntesDaCriacao(inicial))
  if (dataFinal !== undefined) {
    if (typeof dataFinal !== 'string' || !isIsoDate(dataFinal)) out.push(schemaViolation('campo', 'rec.calendario.dataFinal', RULE.date, dataFinal))
    else if (inicial !== null && dataFinal < inicial) out.push(REC_VIOLACOES.dataFinalAntesDaInicial(dataFinal))
  }
  if (!PERIODICIDADES.includes(periodicidade as Periodicidade)) out.push(schemaViolation('campo', 'rec.calendario.periodicidade', RULE.oneOf(PERIODICIDADES), periodicidade))
  if (out.length > before || inicial === null) return null
  return { dataInicial: inicial, ...(dataFinal !== undefined ? { dataFinal: dataFinal as IsoDate } : {}), periodicidade: periodicidade as Periodicidade }
}

function checkValor (input: unknown, out: Violacao[]): RecValor | null {
  if (input === undefined) return {}
  if (!isRecord(input)) { out.push(schemaViolation('objeto', 'rec.valor', REC_RULE.valor)); return null }
  const { valorRec, valorMinimoRecebedor } = input
  const before = out.length
  // A fixed value of zero could never be charged.
  if (valorRec !== undefined && !(hundredths(valorRec) !== null && hundredths(valorRec) !== 0)) out.push(schemaViolation('campo', 'rec.valor.valorRec', RULE.positiveDecimal, valorRec))
  if (valorMinimoRecebedor !== undefined && hundredths(valorMinimoRecebedor) === null) out.push(schemaViolation('campo', 'rec.valor.valorMinimoRecebedor', RULE.decimal, valorMinimoRecebedor))
  if (valorRec !== undefined && valorMinimoRecebedor !== undefined) out.push(REC_VIOLACOES.ambosOsValores())
  if (out.length > before) return null
  return valorRec !== undefined ? { valorRec: valorRec as string } : valorMinimoRecebedor !== undefined ? { valorMinimoRecebedor: valorMinimoRecebedor as string } : {}
}

/** `recebedor` by its schema; whether the PSP accepts its convenio is checked last, as the YAML lists it. */
function checkRecebedor (input: unknown, out: Violacao[]): RecTerms['recebedor'] | null {
  if (input === undefined) return undefined
  if (!isRecord(input) || (input.convenio !== undefined && !textUpTo(input.convenio, 60))) { out.push(schemaViolation('objeto', 'rec.recebedor', REC_RULE.recebedor)); return null }
  return input.convenio === undefined ? {} : { convenio: input.convenio as string }
}

/** A location id: a positive whole number JavaScript holds exactly (int64 in the YAML). */
function isLocId (value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1
}

/** `ativacao` of a request: `{}` or `{ dadosJornada: { txid } }`; null when it is not that. */
function readAtivacao (input: unknown): { txid?: string } | null {
  if (!isRecord(input)) return null
  if (input.dadosJornada === undefined) return {}
  const dados = input.dadosJornada
  return isRecord(dados) && typeof dados.txid === 'string' && TXID.test(dados.txid) ? { txid: dados.txid } : null
}

/**
 * A `POST /rec` body (RecSolicitada), checked; `criacao` is the São Paulo date of creation (today).
 * Every violation is reported, in the order of the YAML's list.
 */
export function parseRecTerms (body: unknown, context: { criacao: IsoDate, convenioAceito?: (convenio: string) => boolean }): RecTermsResult {
  if (!isIsoDate(context.criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${context.criacao}`)
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'rec', RULE.object)] }
  const out: Violacao[] = []
  const vinculo = checkVinculo(body.vinculo, out)
  const calendario = checkCalendario(body.calendario, context.criacao, out)
  const valor = checkValor(body.valor, out)
  const recebedor = checkRecebedor(body.recebedor, out)
  const politica = body.politicaRetentativa
  if (!POLITICAS_RETENTATIVA.includes(politica as PoliticaRetentativa)) out.push(schemaViolation('campo', 'rec.politicaRetentativa', RULE.oneOf(POLITICAS_RETENTATIVA), politica))
  if (body.loc !== undefined && !isLocId(body.loc)) out.push(schemaViolation('campo', 'rec.loc', RULE.locId, body.loc))
  const ativacao = body.ativacao === undefined ? {} : readAtivacao(body.ativacao)
  if (ativacao === null) out.push(schemaViolation('objeto', 'rec.ativacao', REC_RULE.ativacao))
  const convenio = recebedor?.convenio
  if (convenio !== undefined && !(context.convenioAceito ?? (() => true))(convenio)) out.push(REC_VIOLACOES.convenioRecusado(convenio))
  if (out.length > 0 || vinculo === null || calendario === null || valor === null || recebedor === null || ativacao === null) return { ok: false, violacoes: out }
  return {
    ok: true,
    terms: {
      vinculo,
      calendario,
      valor,
      politicaRetentativa: politica as PoliticaRetentativa,
      ...(recebedor !== undefined ? { recebedor } : {}),
      ...(body.loc !== undefined ? { loc: body.loc as number } : {}),
      ...(ativacao.txid !== undefined ? { ativacao: { dadosJornada: { txid: ativacao.txid } } } : {}),
    },
  }
}

// --- PATCH /rec/{idRec} -------------------------------------------------------------------------

function reviseDevedor (current: DeepReadonly<RecDevedor>, vinculo: unknown, out: Violacao[]): RecDevedor | null {
  const devedor = isRecord(vinculo) ? vinculo.devedor : undefined
  if (!isRecord(vinculo) || (devedor !== undefined && !(isRecord(devedor) && textUpTo(devedor.nome, 140)))) {
    out.push(schemaViolation('objeto', 'rec.vinculo', REC_RULE.vinculoRevisado))
    return null
  }
  return devedor === undefined ? { ...current } : { ...current, nome: devedor.nome as string }
}

/**
 * A `PATCH /rec/{idRec}` body (RecRevisada) on a recurrence in `status`, created on `criacao`: the
 * revised terms, or every violation. `cancelar` is true when the body sets `status: CANCELADA`.
 */
export function reviseRecTerms (current: DeepReadonly<RecTerms>, body: unknown, context: { status: RecStatus, criacao: IsoDate }): RecRevisionResult {
  if (!isIsoDate(context.criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${context.criacao}`)
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'rec', RULE.object)] }
  const { status } = context
  const out: Violacao[] = []
  const criada = status === 'CRIADA'
  let dataInicial: IsoDate = current.calendario.dataInicial
  const calendario = body.calendario
  if (calendario !== undefined) {
    if (!isRecord(calendario)) out.push(schemaViolation('objeto', 'rec.calendario', RULE.object))
    else if (calendario.dataInicial !== undefined) {
      const value = calendario.dataInicial
      if (typeof value !== 'string' || !isIsoDate(value)) out.push(schemaViolation('campo', 'rec.calendario.dataInicial', RULE.date, value))
      else if (value < context.criacao) out.push(REC_VIOLACOES.dataInicialAntesDaCriacao(value))
      else if (value !== dataInicial && !criada) out.push(REC_VIOLACOES.dataInicialSomenteCriada())
      else if (current.calendario.dataFinal !== undefined && current.calendario.dataFinal < value) out.push(REC_VIOLACOES.dataFinalAntesDaInicial(current.calendario.dataFinal))
      else dataInicial = value
    }
  }
  let loc = current.loc
  if (body.loc !== undefined) {
    if (!isLocId(body.loc)) out.push(schemaViolation('campo', 'rec.loc', RULE.locId, body.loc))
    else if (body.loc !== loc && !criada) out.push(REC_VIOLACOES.locSomenteCriada())
    else loc = body.loc
  }
  if (body.status !== undefined && body.status !== 'CANCELADA') out.push(schemaViolation('campo', 'rec.status', RULE.oneOf(['CANCELADA']), body.status))
  if (REC_FINAL_STATUSES.includes(status)) out.push(REC_VIOLACOES.encerrada())
  const devedor = body.vinculo === undefined ? { ...current.vinculo.devedor } : reviseDevedor(current.vinculo.devedor, body.vinculo, out)
  let txid = current.ativacao?.dadosJornada.txid
  if (body.ativacao !== undefined) {
    const ativacao = readAtivacao(body.ativacao)
    if (ativacao === null) out.push(schemaViolation('objeto', 'rec.ativacao', REC_RULE.ativacao))
    else if (ativacao.txid !== undefined && ativacao.txid !== txid && (status === 'REJEITADA' || status === 'CANCELADA')) out.push(REC_VIOLACOES.txidRejeitadaOuCancelada())
    else if (ativacao.txid !== undefined) txid = ativacao.txid
  }
  if (out.length > 0 || devedor === null) return { ok: false, violacoes: out }
  const { objeto, contrato } = current.vinculo
  return {
    ok: true,
    terms: {
      vinculo: { ...(objeto !== undefined ? { objeto } : {}), contrato, devedor },
      calendario: { ...current.calendario, dataInicial },
      valor: { ...current.valor },
      politicaRetentativa: current.politicaRetentativa,
      ...(current.recebedor !== undefined ? { recebedor: { ...current.recebedor } } : {}),
      ...(loc !== undefined ? { loc } : {}),
      ...(txid !== undefined ? { ativacao: { dadosJornada: { txid } } } : {}),
    },
    cancelar: body.status === 'CANCELADA',
  }
}

// --- value rule, ids, activation ----------------------------------------------------------------

export type RecValueRule = { kind: 'FIXO', cents: number } | { kind: 'MINIMO', cents: number } | { kind: 'LIVRE' }

/** The value rule of a recurrence's `valor` (terms from parseRecTerms). */
export function recValueRule (valor: DeepReadonly<RecValor>): RecValueRule {
  if (valor.valorRec !== undefined) return { kind: 'FIXO', cents: readCents(valor.valorRec) }
  if (valor.valorMinimoRecebedor !== undefined) return { kind: 'MINIMO', cents: readCents(valor.valorMinimoRecebedor) }
  return { kind: 'LIVRE' }
}

function readCents (value: string): number {
  const n = hundredths(value)
  if (n === null) throw new RangeError(`not an API Pix decimal: ${value} (terms must come from parseRecTerms)`)
  return n
}

const AGENT = /^[0-9A-Z]{8}$/
const ALNUM_11 = /^[a-zA-Z0-9]{11}$/

/**
 * The ids of Pix Automático (RecId, SolicRecId): a 2-character prefix, the agent's 8 characters
 * (its ISPB), the creation date as `yyyyMMdd`, and an 11-character sequence unique within that date.
 */
export function formatAgentId (prefix: string, parts: { agente: string, criacao: IsoDate, sequencial: string }): string {
  const { agente, criacao, sequencial } = parts
  if (!AGENT.test(agente)) throw new RangeError(`agente must be 8 characters [0-9A-Z], got ${agente}`)
  if (!isIsoDate(criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${criacao}`)
  if (!ALNUM_11.test(sequencial)) throw new RangeError(`sequencial must be 11 characters [a-zA-Z0-9], got ${sequencial}`)
  return `${prefix}${agente}${criacao.replaceAll('-', '')}${sequencial}`
}

/** An idRec (RecId): `R`, then `R` when the policy allows retries or `N`, then formatAgentId's parts. */
export function formatRecId (parts: { politicaRetentativa: PoliticaRetentativa, agente: string, criacao: IsoDate, sequencial: string }): string {
  return formatAgentId(parts.politicaRetentativa === 'PERMITE_3R_7D' ? 'RR' : 'RN', parts)
}

/** RecId's schema: 29 characters [a-zA-Z0-9] (what a request's idRec is checked against). */
export function isRecId (s: unknown): s is string {
  return typeof s === 'string' && /^[a-zA-Z0-9]{29}$/.test(s)
}

/** The retry policy an idRec's second character announces (RR, RN), or null for an id of another form. */
export function recIdPolitica (idRec: string): PoliticaRetentativa | null {
  if (!isRecId(idRec) || idRec[0] !== 'R') return null
  return idRec[1] === 'R' ? 'PERMITE_3R_7D' : idRec[1] === 'N' ? 'NAO_PERMITE' : null
}

export type { Jornada, TipoJornada, RecAtivacao } from './rec-types.js'

/**
 * The `ativacao` once `jornada` approved the recurrence: JORNADA_3 keeps the immediate charge's txid
 * (required), the others drop it (RecAtivacao, line 6508).
 */
export function ativacaoAprovada (jornada: Jornada, txid?: string): RecAtivacao {
  if (jornada !== 'JORNADA_3') return { tipoJornada: jornada }
  if (txid === undefined || !TXID.test(txid)) throw new RangeError('JORNADA_3 needs the txid of the immediate charge paid')
  return { tipoJornada: jornada, dadosJornada: { txid } }
}

/** The journey a recurrence's QR code composes: alone JORNADA_2, with a cob JORNADA_3, with a cobv JORNADA_4. */
export function jornadaDoQR (cobranca?: 'cob' | 'cobv'): 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' {
  return cobranca === undefined ? 'JORNADA_2' : cobranca === 'cob' ? 'JORNADA_3' : 'JORNADA_4'
}
