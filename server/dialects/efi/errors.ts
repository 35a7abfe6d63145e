import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import type { ErrorAnswer, ErrorFamily, ErrorShape } from '../../errors/families.js'
import { PROBLEM_TYPE_BASE } from '../../errors/problems.js'
import type { Code } from '../../errors/refusal.js'
import type { OAuthScope } from '../../domain/scopes.js'

/**
 * Efí's errors on its own routes (docs/efi.md, Errors): not BACEN's problem details everywhere, but
 * three shapes chosen per route as Efí's documentation shows them: `{ nome, mensagem }` (pay-outs,
 * balance, settings, keys), problem details (`type`, `title`, `status`, `detail`, `violacoes`) where
 * a route documents a problem type for the status (reads of sent PIX, QR codes), and OAuth's
 * `insufficient_scope` for a token without the route's scope, on every route.
 */

declare module '../../errors/refusal.js' {
  interface DialectCodes {
    /** `pagador.chave` is no key of the authenticated account. */
    EFI_PAYER_KEY_INVALID: true
    /** The payer's key has no webhook (Efí requires one for a pay-out). */
    EFI_NO_WEBHOOK: true
    /** The favorecido's document is not the key holder's, or not the account's own (mesma-titularidade). */
    EFI_DOCUMENT_MISMATCH: true
    /** A favorecido key the directory does not list (v3). */
    EFI_RECEIVER_KEY_NOT_FOUND: true
    /** A pay-out refused on the request (the homologação profile above R$ 20.00). */
    EFI_PAYMENT_DENIED: true
    /** DELETE /v2/gn/evp/:chave of a key that is no random key of the account. */
    EFI_KEY_NOT_FOUND: true
    /** GET /v2/loc/:id/qrcode of a location the account does not have. */
    EFI_LOCATION_NOT_FOUND: true
    /** GET /v2/loc/:id/qrcode of a location that serves no charge. */
    EFI_LOCATION_EMPTY: true
    /** A pixCopiaECola that is no BR Code. */
    EFI_QRCODE_UNREADABLE: true
    /** A defence after the case's deadline. */
    MED_DEFENCE_LATE: true
  }
}

/** What an Efí route says in its config (`config.efi`): its scope, and the problem type of each status it answers as a problem. */
export interface EfiRoute {
  readonly scope: OAuthScope
  readonly problems?: Readonly<Partial<Record<number, EfiProblemType>>>
}

export interface EfiProblemType {
  /** BACEN's error name (under https://pix.bcb.gov.br/api/v2/error/), or a whole URL where Efí uses another (its reports'). */
  readonly type: string
  readonly title: string
  /** A fixed `detail`, the refusal's text then going to `violacoes[0].razao` under `propriedade`. */
  readonly detail?: string
  readonly propriedade?: string
}

/** The config of a route of Efí's: a token (API Pix's sign-in) with the route's scope, Efí's error shapes. */
export const efiConfig = (route: EfiRoute) => ({ auth: true, scope: route.scope, efi: route })

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of Efí's own (docs/efi.md): its errors are Efí's shapes. */
    efi?: EfiRoute
  }
}

const EfiNamed = Type.Object({ nome: Type.String(), mensagem: Type.String() })
const EfiProblemBody = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.Optional(Type.String()),
  violacoes: Type.Optional(Type.Array(Type.Object({ razao: Type.String(), propriedade: Type.Optional(Type.String()) }))),
})
const EfiScopeError = Type.Object({ error: Type.Literal('insufficient_scope'), error_description: Type.String() })

export const EfiError = Type.Union([EfiNamed, EfiProblemBody, EfiScopeError], {
  $id: 'EfiError',
  description: 'Error of Efí\'s own routes (docs/efi.md, Errors): { nome, mensagem }, problem details where the route documents them, or insufficient_scope (403)',
})

/** Efí's `nome` of each outcome its routes can meet. */
const NAMES: Readonly<Partial<Record<Code, string>>> = {
  INVALID_REQUEST: 'valor_invalido',
  PIX_INVALID_AMOUNT: 'valor_invalido',
  UNKNOWN_SCENARIO: 'valor_invalido',
  INVALID_SCENARIO_PARAMETER: 'valor_invalido',
  PIX_INVALID_PIX_KEY: 'chave_invalida',
  EFI_PAYER_KEY_INVALID: 'chave_invalida',
  EFI_NO_WEBHOOK: 'webhook_nao_cadastrado',
  EFI_DOCUMENT_MISMATCH: 'chave_nao_pertence_ao_documento',
  EFI_RECEIVER_KEY_NOT_FOUND: 'chave_favorecido_nao_encontrada',
  PIX_DUPLICATE_EXTERNAL_ID: 'id_envio_duplicado',
  QRCODE_DUPLICATE_EXTERNAL_ID: 'id_envio_duplicado',
  PIX_INSUFFICIENT_BALANCE: 'saldo_insuficiente',
  PIX_TRANSACTION_LIMIT_EXCEEDED: 'limite_excedido',
  PIX_DAILY_LIMIT_EXCEEDED: 'limite_excedido',
  PIX_NIGHT_LIMIT_EXCEEDED: 'limite_excedido',
  PROVIDER_REJECTED: 'pagamento_negado',
  EFI_PAYMENT_DENIED: 'pagamento_negado',
  UNAUTHORIZED: 'nao_autorizado',
  NOT_FOUND: 'nao_encontrado',
  RATE_LIMITED: 'balde_fichas_vazio',
  INTERNAL_ERROR: 'erro_aplicacao',
  EFI_KEY_NOT_FOUND: 'chave_nao_encontrada',
  ACCOUNT_LIMIT_REACHED: 'limite_criacao_chave_atingido',
  EFI_LOCATION_NOT_FOUND: 'location_nao_encontrada',
  EFI_LOCATION_EMPTY: 'location_sem_cobranca',
}

/** Outcomes Efí answers `{ nome, mensagem }` even on a route of problem details (its pay-outs' rules, docs/efi.md). */
const ALWAYS_NAMED: ReadonlySet<string> = new Set<Code>(['EFI_NO_WEBHOOK', 'PIX_DUPLICATE_EXTERNAL_ID', 'QRCODE_DUPLICATE_EXTERNAL_ID'])

/** Efí's 404 for a path under its `/gn/` routes that is none of them (docs/efi.md, Errors). */
const NOT_FOUND_PROBLEM = {
  type: 'https://api-pix.gerencianet.com.br/v2/gn/NaoEncontrado',
  title: 'Não encontrado',
  status: 404,
  detail: 'Recurso não encontrado ou não pertence à conta autenticada',
}

function bodyOf (answer: ErrorAnswer, request: FastifyRequest): Record<string, unknown> {
  if (answer.outcome === 'ACCESS_DENIED') return { error: 'insufficient_scope', error_description: 'Access token has insufficient scope' }
  const route = request.routeOptions.config?.efi
  if (route === undefined && answer.status === 404) return { ...NOT_FOUND_PROBLEM }
  const text = answer.messages.join('; ')
  const problem = answer.outcome !== undefined && ALWAYS_NAMED.has(answer.outcome) ? undefined : route?.problems?.[answer.status]
  if (problem === undefined) {
    const nome = (answer.outcome !== undefined ? NAMES[answer.outcome] : undefined) ?? (answer.status >= 500 ? 'erro_aplicacao' : 'valor_invalido')
    return { nome, mensagem: text }
  }
  const base = { type: problem.type.startsWith('https://') ? problem.type : `${PROBLEM_TYPE_BASE}${problem.type}`, title: problem.title, status: answer.status }
  if (problem.detail === undefined) return { ...base, detail: text }
  return { ...base, detail: problem.detail, violacoes: answer.messages.map(razao => ({ razao, ...(problem.propriedade !== undefined ? { propriedade: problem.propriedade } : {}) })) }
}

export const EFI_SHAPE: ErrorShape = {
  name: 'efi',
  schemaId: 'EfiError',
  headers: answer => ({
    'content-type': 'application/json; charset=utf-8',
    ...(answer.status === 401 ? { 'www-authenticate': 'Bearer realm="pix-sandbox"' } : {}),
  }),
  body: bodyOf,
}

/** Where Efí's routes are: under API Pix's base path (`/v2` at Efí) and its `/v3` sibling. */
export function efiPrefixes (apiPixBasePath: string): { v2: string, v3: string } {
  return { v2: apiPixBasePath, v3: apiPixBasePath.replace(/\/[^/]+$/, '/v3') }
}

export const EFI: ErrorFamily = {
  name: 'efi',
  answers: {
    INVALID_REQUEST: 400,
    PIX_INVALID_AMOUNT: 400,
    PIX_INVALID_PIX_KEY: 400,
    EFI_PAYER_KEY_INVALID: 400,
    EFI_NO_WEBHOOK: 400,
    EFI_DOCUMENT_MISMATCH: 400,
    EFI_RECEIVER_KEY_NOT_FOUND: 404,
    PIX_DUPLICATE_EXTERNAL_ID: 409,
    QRCODE_DUPLICATE_EXTERNAL_ID: 409,
    PIX_INSUFFICIENT_BALANCE: 400,
    // The devolução of a split PIX: API Pix's refusals, all 400 PixDevolucaoInvalida.
    REFUND_DEADLINE_EXCEEDED: 400,
    REFUND_AMOUNT_EXCEEDS_ORIGINAL: 400,
    DEVOLUCAO_ID_EXISTS: 400,
    PIX_TRANSACTION_LIMIT_EXCEEDED: 400,
    PIX_DAILY_LIMIT_EXCEEDED: 400,
    PIX_NIGHT_LIMIT_EXCEEDED: 400,
    QRCODE_ALREADY_PAID: 400,
    QRCODE_NOT_AVAILABLE: 400,
    PROVIDER_REJECTED: 422,
    EFI_PAYMENT_DENIED: 422,
    EFI_KEY_NOT_FOUND: 400,
    ACCOUNT_LIMIT_REACHED: 400,
    EFI_LOCATION_NOT_FOUND: 400,
    EFI_LOCATION_EMPTY: 400,
    EFI_QRCODE_UNREADABLE: 422,
    INVALID_PIX_CODE: 400,
    MED_NOT_FOUND: 404,
    MED_INVALID_TRANSITION: 409,
    MED_DEFENCE_LATE: 422,
    UNKNOWN_SCENARIO: 400,
    INVALID_SCENARIO_PARAMETER: 400,
    UNAUTHORIZED: 401,
    ACCESS_DENIED: 403,
    NOT_FOUND: 404,
    ROUTE_NOT_FOUND: 404,
    BODY_TOO_LARGE: 413,
    URI_TOO_LONG: 414,
    UNSUPPORTED_MEDIA_TYPE: 415,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
    STORAGE_UNAVAILABLE: 503,
  },
  // Its `/gn/` paths, longer than API Pix's base path, which claims the rest.
  claim: (path, settings) => {
    if (settings.apiPixBasePath === undefined) return undefined
    const { v2, v3 } = efiPrefixes(settings.apiPixBasePath)
    for (const prefix of [`${v2}/gn`, `${v3}/gn`]) if (path === prefix || path.startsWith(`${prefix}/`)) return prefix.length
    return undefined
  },
  owns: config => config.efi !== undefined,
  shapeOf: () => EFI_SHAPE,
  // An unknown X-Sandbox-Scenario (400); a token without the route's scope (403); a data file that cannot be written (503).
  declare: () => [400, 403, 503],
}
