/**
 * Confirmation requests (`solicrec`) of Pix Automático's journey 1 in API Pix 2.9.0: the receiver
 * asks the payer's PSP to have the payer confirm a recurrence. The request a receiver sends in
 * `POST /solicrec`, its cancellation by `PATCH /solicrec/{idSolicRec}`, and its id. Pure: the
 * creation date and instant are passed in.
 *
 * API (for the routes and services of Pix Automático; propriedade names are API Pix's, `solicrec.` prefixed):
 * - `parseSolicRecRequest(body, { criacao })`: a `POST /solicrec` body as received (unknown), checked.
 *   `{ ok: true, request }` (SolicRecRequest: `idRec`, `calendario.dataExpiracaoSolicitacao` as sent
 *   plus `expiraEm`, its instant in ms, `destinatario`) or `{ ok: false, violacoes }` in the words of
 *   the YAML's SolicRecOperacaoInvalida list. `criacao` is today's São Paulo date.
 * - `checkSolicRecForRec(idRec, solicitacoes)`: the violation when the recurrence already has an
 *   active request (`solicitacoes`: the statuses of its requests), for the service to add.
 * - `parseSolicRecRevision(body, status)`: a `PATCH` (SolicRecRevisada) on a request in `status`:
 *   `{ ok: true }` (cancel it; rec-lifecycle.ts moves it) or the violations.
 * - `formatSolicRecId(...)`: the id SolicRecId describes.
 * - `solicRecExpiresAt(dataExpiracaoSolicitacao, enviadaEm)`: when a request the receiver's PSP sent
 *   at `enviadaEm` stops waiting for the payer: its dataExpiracaoSolicitacao, or 30 days after it was
 *   sent when that comes first (SOLICREC_PRAZO_MAXIMO_MS).
 *
 * The rules, with the YAML's lines (bacen-pix-api-2.9.0.yaml):
 * - 259-263 (SolicRecOperacaoInvalida, POST): calendario by its schema; dataExpiracaoSolicitacao not
 *   before the request's creation date; destinatario by its schema; no second active request for
 *   the same idRec.
 * - 265-267 (PATCH): only a request CRIADA, ENVIADA or RECEBIDA can be cancelled.
 * - 6763-6786 (SolicRecBase): idRec a RecId; calendario.dataExpiracaoSolicitacao a date-time
 *   (RFC 3339); destinatario the payer's account (DadosBancarios, 5104: conta <= 20 and
 *   ispbParticipante `^[0-9A-Z]{8}$` required, agencia <= 4) and exactly one of cpf and cnpj.
 * - 6837 (SolicRecRevisada): status, required, only CANCELADA.
 * - 6741 (SolicRecId): `SC` + the sending agent's ISPB (8) + `yyyyMMdd` + 11 alphanumeric characters.
 *
 * Where the schema and API Pix's own request example disagree, the example wins (listed in
 * test/helpers/api-pix-schemas.ts, REQUEST_CORRECTIONS): SolicRecBase requires `pagador`, a property it never defines, and
 * solicRecBody1 has none: not required.
 *
 * Decisions where API Pix is silent (docs/assumptions.md, Pix Automático):
 * - dataExpiracaoSolicitacao is compared with the creation date as São Paulo calendar days, as the
 *   YAML's violation says "data": solicRecResponse1 expires a minute before it was created, on the
 *   same day. An offset is required (RFC 3339).
 * - "Active" is a status not final: CRIADA, ENVIADA or RECEBIDA.
 * - A request stays open for the payer at most 30 days after the receiver's PSP sent it (IN BCB
 *   436/2023, art. 3: "até o limite de trinta dias após o envio"; a shorter expiry is the receiver's
 *   choice): a later dataExpiracaoSolicitacao is accepted as written and the request expires at 30 days.
 * - A `PATCH` without a status is refused (status is required); an unknown idRec's form is refused
 *   with the schema wording "O campo solicrec.idRec não respeita o _schema_: deve ser um idRec, ...".
 */
import { isRecord, RULE, schemaViolation, shown, textUpTo, type Violacao } from './api-pix-fields.js'
import type { IsoDate } from './business-days.js'
import { saoPauloTime } from './calendar.js'
import { isIsoDate, parseInstant } from './instant.js'
import { formatAgentId, isRecId } from './rec.js'
import type { SolicRecDestinatario, SolicRecStatus } from './rec-types.js'

export type { Violacao } from './api-pix-fields.js'

export { SOLICREC_STATUSES } from './rec-types.js'
export type { SolicRecStatus, SolicRecDestinatario } from './rec-types.js'

/** Statuses of a request still waiting for the payer: the ones a cancellation may stop (line 267). */
export const SOLICREC_ACTIVE_STATUSES: readonly SolicRecStatus[] = ['CRIADA', 'ENVIADA', 'RECEBIDA']

export interface SolicRecRequest {
  idRec: string
  calendario: { dataExpiracaoSolicitacao: string }
  destinatario: SolicRecDestinatario
  /** dataExpiracaoSolicitacao as an instant (ms since the epoch). */
  expiraEm: number
}

export type SolicRecRequestResult = { ok: true, request: SolicRecRequest } | { ok: false, violacoes: Violacao[] }

const CPF = /^\d{11}$/
const CNPJ = /^[0-9A-Z]{14}$/
const ISPB = /^[0-9A-Z]{8}$/

/** The violations of SolicRecOperacaoInvalida, in the YAML's words (lines 259-267). */
export const SOLICREC_VIOLACOES = {
  expiracaoAntesDaCriacao: (value: unknown): Violacao => ({ razao: 'O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação da solicitação da recorrência.', propriedade: 'solicrec.calendario.dataExpiracaoSolicitacao', ...shown(value) }),
  solicitacaoAtiva: (idRec: string): Violacao => ({ razao: 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', propriedade: 'solicrec.idRec', valor: idRec }),
  naoCancelavel: (): Violacao => ({ razao: 'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.', propriedade: 'solicrec.status' }),
}

/** What the schema of a confirmation request asks of its members (SolicRecSolicitada). */
const SOLICREC_RULE = {
  calendario: 'deve ser um objeto com dataExpiracaoSolicitacao, uma data-hora RFC 3339 com fuso, como "2026-03-10T12:00:00Z"',
  destinatario: 'deve ter conta (texto de até 20 caracteres), ispbParticipante (8 dígitos ou letras maiúsculas), agencia opcional (até 4) e cpf (11 dígitos) ou cnpj (14 dígitos ou letras maiúsculas), não os dois',
} as const

function checkDestinatario (input: unknown): SolicRecDestinatario | null {
  if (!isRecord(input)) return null
  const { conta, ispbParticipante, agencia, cpf, cnpj } = input
  if (!textUpTo(conta, 20) || typeof ispbParticipante !== 'string' || !ISPB.test(ispbParticipante)) return null
  if (agencia !== undefined && !textUpTo(agencia, 4)) return null
  if (cpf !== undefined && cnpj !== undefined) return null
  const account = { conta, ispbParticipante, ...(agencia !== undefined ? { agencia: agencia as string } : {}) }
  if (typeof cpf === 'string' && CPF.test(cpf)) return { ...account, cpf }
  if (typeof cnpj === 'string' && CNPJ.test(cnpj)) return { ...account, cnpj }
  return null
}

/** A `POST /solicrec` body (SolicRecSolicitada), checked; `criacao` is the São Paulo date of creation (today). */
export function parseSolicRecRequest (body: unknown, context: { criacao: IsoDate }): SolicRecRequestResult {
  if (!isIsoDate(context.criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${context.criacao}`)
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'solicrec', RULE.object)] }
  const out: Violacao[] = []
  if (!isRecId(body.idRec)) out.push(schemaViolation('campo', 'solicrec.idRec', RULE.recId, body.idRec))
  const { calendario } = body
  const value = isRecord(calendario) ? calendario.dataExpiracaoSolicitacao : undefined
  const expiraEm = typeof value === 'string' ? parseInstant(value) : null
  if (expiraEm === null) out.push(schemaViolation('objeto', 'solicrec.calendario', SOLICREC_RULE.calendario))
  else if (saoPauloTime(expiraEm).day < context.criacao) out.push(SOLICREC_VIOLACOES.expiracaoAntesDaCriacao(value))
  const destinatario = checkDestinatario(body.destinatario)
  if (destinatario === null) out.push(schemaViolation('objeto', 'solicrec.destinatario', SOLICREC_RULE.destinatario))
  if (out.length > 0 || expiraEm === null || destinatario === null) return { ok: false, violacoes: out }
  return { ok: true, request: { idRec: body.idRec as string, calendario: { dataExpiracaoSolicitacao: value as string }, destinatario, expiraEm } }
}

/** The violation when a recurrence already has a request waiting for the payer; none otherwise. */
export function checkSolicRecForRec (idRec: string, solicitacoes: readonly SolicRecStatus[]): Violacao[] {
  return solicitacoes.some(s => SOLICREC_ACTIVE_STATUSES.includes(s)) ? [SOLICREC_VIOLACOES.solicitacaoAtiva(idRec)] : []
}

/** A `PATCH /solicrec/{idSolicRec}` body (SolicRecRevisada) on a request in `status`: cancel it, or the violations. */
export function parseSolicRecRevision (body: unknown, status: SolicRecStatus): { ok: true } | { ok: false, violacoes: Violacao[] } {
  if (!isRecord(body)) return { ok: false, violacoes: [schemaViolation('objeto', 'solicrec', RULE.object)] }
  if (body.status !== 'CANCELADA') return { ok: false, violacoes: [schemaViolation('campo', 'solicrec.status', RULE.oneOf(['CANCELADA']), body.status)] }
  if (!SOLICREC_ACTIVE_STATUSES.includes(status)) return { ok: false, violacoes: [SOLICREC_VIOLACOES.naoCancelavel()] }
  return { ok: true }
}

/** How long the payer's PSP keeps a request open after it was sent, at most: thirty days. */
export const SOLICREC_PRAZO_MAXIMO_MS = 30 * 86_400_000

/** When a request sent at `enviadaEm` expires: its dataExpiracaoSolicitacao, or thirty days after it was sent if sooner. */
export function solicRecExpiresAt (dataExpiracaoSolicitacao: string, enviadaEm: number): number {
  const asked = parseInstant(dataExpiracaoSolicitacao)
  const limit = enviadaEm + SOLICREC_PRAZO_MAXIMO_MS
  return asked === null ? limit : Math.min(asked, limit)
}

/** An idSolicRec (SolicRecId): `SC`, then formatAgentId's parts (the agent that sends the request). */
export function formatSolicRecId (parts: { agente: string, criacao: IsoDate, sequencial: string }): string {
  return formatAgentId('SC', parts)
}
