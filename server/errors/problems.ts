/**
 * API Pix's errors (BACEN's API Pix 2.9.0, "Tratamento de erros"): RFC 7807 problem details whose
 * `type` is `https://pix.bcb.gov.br/api/v2/error/<TipoErro>`. The general types answer any endpoint;
 * each tag (Cob, PayloadLocation, ...) has its own for its invalid operations, invalid queries and
 * entities not found, which a route names in its config (`apiPix.problems`). The error handler and the
 * route plugins read it, and a service that reports a refusal inside a record (a request of a batch).
 */
import type { Code, Refusal } from './refusal.js'

export const PROBLEM_TYPE_BASE = 'https://pix.bcb.gov.br/api/v2/error/'

/**
 * API Pix's column of the error table: the status of each outcome it can meet (the API Pix dialect's
 * error family, server/dialects/api-pix/errors.ts). Here, beside its problem types, because the
 * batches of due charges record the problem of each request they refuse (`refusalProblem`).
 */
export const API_PIX_STATUSES: Readonly<Partial<Record<Code, number>>> = {
  INVALID_REQUEST: 400,
  // API Pix's OAuth token (RFC 6749 §5.2, RFC 8705 §2): both are the client failing to authenticate, 401 invalid_client.
  INVALID_CREDENTIALS: 401,
  CERTIFICATE_NOT_LINKED: 401,
  // API Pix's OAuth token: RFC 6749 §5.2's unsupported_grant_type and invalid_scope.
  UNSUPPORTED_GRANT_TYPE: 400,
  INVALID_SCOPE: 400,
  ROUTE_NOT_FOUND: 404,
  BODY_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAUTHORIZED: 401,
  // A token without the scope the route needs (AcessoNegado, docs/api-pix.md, Scopes).
  ACCESS_DENIED: 403,
  // The transport faults (server/faults.ts) answer API Pix's operations too.
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  NOT_FOUND: 404,
  // API Pix's devolução answers PixDevolucaoInvalida (400).
  PIX_INSUFFICIENT_BALANCE: 400,
  // API Pix answers both as CobOperacaoInvalida (400): a txid in use, a charge no longer ATIVA.
  COB_TXID_EXISTS: 400,
  COB_NOT_ACTIVE: 400,
  // API Pix's payload location that showed a charge and will not show it again (CobPayloadNaoEncontrado, 410).
  PAYLOAD_GONE: 410,
  // API Pix's devolução answers both a late request and an id in use as PixDevolucaoInvalida (400).
  REFUND_DEADLINE_EXCEEDED: 400,
  REFUND_AMOUNT_EXCEEDS_ORIGINAL: 400,
  DEVOLUCAO_ID_EXISTS: 400,
  UNKNOWN_SCENARIO: 400,
  INVALID_SCENARIO_PARAMETER: 400,
}

/** Each type API Pix 2.9.0 lists, with the title the sandbox gives it. */
const TITLES = {
  RequisicaoInvalida: 'Requisição inválida',
  AcessoNegado: 'Acesso negado',
  NaoEncontrado: 'Não encontrado',
  PermanentementeRemovido: 'Permanentemente removido',
  ErroInternoDoServidor: 'Erro interno do servidor',
  ServicoIndisponivel: 'Serviço indisponível',
  IndisponibilidadePorTempoEsgotado: 'Indisponibilidade por tempo esgotado',
  CobPayloadNaoEncontrado: 'Cobrança não encontrada',
  CobPayloadOperacaoInvalida: 'Operação inválida',
  CobNaoEncontrado: 'Cobrança não encontrada',
  CobOperacaoInvalida: 'Cobrança inválida',
  CobConsultaInvalida: 'Consulta inválida',
  CobVNaoEncontrada: 'Cobrança com vencimento não encontrada',
  CobVOperacaoInvalida: 'Cobrança com vencimento inválida',
  CobVConsultaInvalida: 'Consulta inválida',
  LoteCobVNaoEncontrado: 'Lote não encontrado',
  LoteCobVOperacaoInvalida: 'Lote de cobranças inválido',
  LoteCobVConsultaInvalida: 'Consulta inválida',
  PayloadLocationNaoEncontrado: 'Location não encontrada',
  PayloadLocationOperacaoInvalida: 'Location inválida',
  PayloadLocationConsultaInvalida: 'Consulta inválida',
  PixNaoEncontrado: 'Pix não encontrado',
  PixDevolucaoNaoEncontrada: 'Devolução não encontrada',
  PixConsultaInvalida: 'Consulta inválida',
  PixDevolucaoInvalida: 'Devolução inválida',
  WebhookOperacaoInvalida: 'Webhook inválido',
  WebhookNaoEncontrado: 'Webhook não encontrado',
  WebhookConsultaInvalida: 'Consulta inválida',
  RecPayloadNaoEncontrado: 'Recorrência não encontrada',
  RecPayloadOperacaoInvalida: 'Operação inválida',
  RecNaoEncontrada: 'Recorrência não encontrada',
  RecOperacaoInvalida: 'Recorrência inválida',
  RecConsultaInvalida: 'Consulta inválida',
  SolicRecNaoEncontrada: 'Solicitação de recorrência não encontrada',
  SolicRecOperacaoInvalida: 'Solicitação de recorrência inválida',
  CobRNaoEncontrado: 'Cobrança recorrente não encontrada',
  CobROperacaoInvalida: 'Cobrança recorrente inválida',
  CobRConsultaInvalida: 'Consulta inválida',
  PayloadLocationRecNaoEncontrado: 'Location não encontrada',
  PayloadLocationRecConsultaInvalida: 'Consulta inválida',
  WebhookRecOperacaoInvalida: 'Webhook inválido',
  WebhookRecConsultaInvalida: 'Consulta inválida',
  WebhookCobROperacaoInvalida: 'Webhook inválido',
  WebhookCobRConsultaInvalida: 'Consulta inválida',
} as const

export type ProblemType = keyof typeof TITLES

/** What an API Pix route says about its errors, in its route config (`config.apiPix`). */
export interface ProblemRoute {
  /** The type of its tag for a status, where the general one does not apply (400 CobOperacaoInvalida, 404 CobNaoEncontrado). */
  readonly problems?: Readonly<Partial<Record<number, ProblemType>>>
  /** What the body is, so a body field `valor.original` is the violation's `propriedade` `cob.valor.original`, as BACEN names it. */
  readonly entity?: string
}

/** The general type of a status: what any endpoint answers (413, 414 and 415 are an invalid request too). */
function generalType (status: number): ProblemType {
  switch (status) {
    case 401:
    case 403: return 'AcessoNegado'
    case 404: return 'NaoEncontrado'
    case 410: return 'PermanentementeRemovido'
    case 503: return 'ServicoIndisponivel'
    case 504: return 'IndisponibilidadePorTempoEsgotado'
    default: return status >= 500 ? 'ErroInternoDoServidor' : 'RequisicaoInvalida'
  }
}

/** One entry of `violacoes`: why, and the property it is about when known. */
export interface Violation { razao: string, propriedade?: string }

/** A problem as API Pix answers it (schema Problema). */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  violacoes?: Violation[]
}

/** The problem of a status on a route: its tag's type where the route names one, else the general type. */
export function problemOf (status: number, route: ProblemRoute | undefined, detail: string, violacoes?: Violation[]): Problem {
  const type = route?.problems?.[status] ?? generalType(status)
  return { type: PROBLEM_TYPE_BASE + type, title: TITLES[type], status, detail, ...(violacoes && violacoes.length > 0 ? { violacoes } : {}) }
}

/**
 * The violations a refusal of invalid input lists (or another refusal that names the properties it is
 * about, as a txid in use): one per message, with the property it is about when known.
 */
export function violationsOf (refusal: Refusal): Violation[] | undefined {
  if (refusal.code !== 'INVALID_REQUEST' && refusal.fields === undefined) return undefined
  return refusal.messages.map((razao, i) => {
    const field = refusal.fields?.[i]
    return field === undefined ? { razao } : { razao, propriedade: field }
  })
}

/**
 * A refusal as API Pix would answer it on a route with these problem types: what a batch (lotecobv)
 * shows as the `problema` of a request it refused, in the words PUT or PATCH /cobv/{txid} would use.
 * A code API Pix never meets is an internal error, as the handler answers it.
 */
export function refusalProblem (refusal: Refusal, route: ProblemRoute): Problem {
  const status = API_PIX_STATUSES[refusal.code]
  if (status === undefined) return problemOf(500, route, 'Erro interno do servidor')
  return problemOf(status, route, refusal.messages.join('; '), violationsOf(refusal))
}
