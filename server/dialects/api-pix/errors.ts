import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { JWKS_PATH, PAYLOAD_PATH } from '../../domain/payload-locations.js'
import { OAUTH_TOKEN_PATH } from '../../domain/scopes.js'
import type { ErrorAnswer, ErrorFamily, ErrorShape, RouteUrl } from '../../errors/families.js'
import { targetPath } from '../../errors/families.js'
import { API_PIX_STATUSES, problemOf } from '../../errors/problems.js'
import { Refusal } from '../../errors/refusal.js'
import { StringEnum } from '../../schemas/common.js'

/**
 * API Pix's errors (docs/api-pix.md): RFC 7807 problem details whose types are BACEN's
 * (server/errors/problems.ts), and RFC 6749's errors for its OAuth token. Its family answers under its
 * base path, at its token, its payload locations and their key, and on any route whose config says it
 * is API Pix's (`config.apiPix`).
 */

export const ApiPixProblem = Type.Object({
  type: Type.String({ description: 'https://pix.bcb.gov.br/api/v2/error/<TipoErro>' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.Optional(Type.String()),
  correlationId: Type.Optional(Type.String()),
  violacoes: Type.Optional(Type.Array(Type.Object({
    razao: Type.Optional(Type.String()),
    propriedade: Type.Optional(Type.String()),
    valor: Type.Optional(Type.String()),
  }))),
  nome: Type.Optional(Type.String({ description: 'Efí\'s name of the error, beside BACEN\'s members (RFC 7807 extension): on a webhook refused by the check of its receiver\'s mutual TLS (docs/webhooks.md)' })),
  mensagem: Type.Optional(Type.String({ description: 'Efí\'s message of the error, the same as detail, where nome is' })),
}, { $id: 'ApiPixProblem', description: 'Error of BACEN\'s API Pix (RFC 7807 problem details, application/problem+json)' })

export const OAuthError = Type.Object({
  error: StringEnum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'] as const),
  error_description: Type.Optional(Type.String()),
}, { $id: 'OAuthError', description: 'Error of API Pix\'s OAuth token (RFC 6749 section 5.2)' })

/**
 * Problem details: the type the route names for the status, else the general one; invalid input
 * listed as `violacoes`, a body field named as BACEN does (`cob.valor.original`).
 */
export const PROBLEM: ErrorShape = {
  name: 'problem',
  schemaId: 'ApiPixProblem',
  mediaType: 'application/problem+json',
  headers: answer => ({
    'content-type': 'application/problem+json; charset=utf-8',
    ...(answer.status === 401 ? { 'www-authenticate': 'Bearer realm="pix-sandbox"' } : {}),
  }),
  body: (answer: ErrorAnswer, request: FastifyRequest) => {
    const route = request.routeOptions.config?.apiPix
    const entity = answer.part === 'body' ? route?.entity : undefined
    const violacoes = answer.violations?.map(v => entity !== undefined && v.propriedade !== undefined ? { ...v, propriedade: `${entity}.${v.propriedade}` } : v)
    // A refusal in Efí's words (a webhook's mutual TLS) also carries its `nome` and `mensagem`, as Efí answers them.
    const efi = typeof answer.details?.nome === 'string' && typeof answer.details.mensagem === 'string' ? { nome: answer.details.nome, mensagem: answer.details.mensagem } : {}
    return { ...problemOf(answer.status, route, answer.messages.join('; '), violacoes), ...efi }
  },
}

/** RFC 6749 §5.2's error code of an outcome of the OAuth token. */
function oauthError (answer: ErrorAnswer): string {
  switch (answer.outcome) {
    case 'INVALID_CREDENTIALS':
    case 'CERTIFICATE_NOT_LINKED': return 'invalid_client'
    case 'UNSUPPORTED_GRANT_TYPE': return 'unsupported_grant_type'
    case 'INVALID_SCOPE': return 'invalid_scope'
  }
  if (answer.status === 503) return 'temporarily_unavailable'
  return answer.status >= 500 ? 'server_error' : 'invalid_request'
}

/** RFC 6749 §5.2: a failed client authentication is a 401 naming the scheme; no answer is cached (§5.1). */
export const OAUTH: ErrorShape = {
  name: 'oauth',
  schemaId: 'OAuthError',
  headers: answer => ({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...(answer.status === 401 ? { 'www-authenticate': 'Basic realm="pix-sandbox"' } : {}),
  }),
  body: answer => ({ error: oauthError(answer), error_description: answer.messages.join('; ') }),
}

/** Whether a pattern's segments (`:name` matching any one) match a path's. */
const patternMatches = (pattern: readonly string[], path: readonly string[]): boolean =>
  pattern.length === path.length && pattern.every((p, i) => p.startsWith(':') ? path[i] !== '' : p === path[i])

/**
 * The path under API Pix's base path that a request reaching no route most likely meant, when its path
 * is an operation of API Pix under another prefix ending in a version (`/v1/cob/x`, `/api/v2/cob`,
 * `/pix/v2/cobv`), or under none where no other route has such a resource (`/cobv/x`): the base path,
 * and the rest of the path. Undefined for anything else, which keeps its family's 404: a path of the
 * control plane or of API Pix itself, and a route under /api with a version slipped in
 * (`/api/v1/pix/cash-out`, the gateway's standard family).
 */
export function apiPixPathMeant (path: string, base: string, routes: readonly RouteUrl[]): string | undefined {
  const segments = path.split('/').slice(1)
  const under = routes.filter(r => r.url.startsWith(`${base}/`) && !r.url.endsWith('*')).map(r => r.url.slice(base.length + 1).split('/'))
  const outside = routes.filter(r => !r.url.startsWith(`${base}/`)).map(r => r.url.split('/').slice(1))
  for (let i = 0; i < segments.length; i++) {
    const rest = segments.slice(i)
    if (!under.some(p => patternMatches(p, rest))) continue
    if (i === 0 ? outside.some(p => p[0] === rest[0]) : !/^v\d+$/i.test(segments[i - 1])) continue
    const withoutVersion = [...segments.slice(0, i - 1), ...rest]
    if (i > 0 && segments[0] === 'api' && outside.some(p => patternMatches(p, withoutVersion))) continue
    return `${base}/${rest.join('/')}`
  }
  return undefined
}

/** The paths of API Pix outside its base path: its token, its payload locations and their key. */
const outsideBase = (path: string): boolean => path === OAUTH_TOKEN_PATH || path === JWKS_PATH || path.startsWith(`${PAYLOAD_PATH}/`)

export const API_PIX: ErrorFamily = {
  name: 'api-pix',
  answers: API_PIX_STATUSES,
  claim: (path, settings) => {
    if (outsideBase(path)) return path.length
    const base = settings.apiPixBasePath
    return base !== undefined && (path === base || path.startsWith(`${base}/`)) ? base.length : undefined
  },
  owns: config => config.apiPix !== undefined,
  shapeOf: path => path === OAUTH_TOKEN_PATH ? OAUTH : PROBLEM,
  // An unknown X-Sandbox-Scenario (400); ServicoIndisponivel, as BACEN declares on every operation (a
  // data file that cannot be written); AcessoNegado where the route needs a scope.
  declare: route => (route.config as { apiPix?: { scope?: string } } | undefined)?.apiPix?.scope !== undefined ? [400, 503, 403] : [400, 503],
  /**
   * The 404 of a path that is an operation of API Pix under another prefix than its base path (`/v1/cob`
   * where API Pix is at /v2): in API Pix's shape, naming the base path, the path meant and the setting
   * that moves it, since a client that calls API Pix there is one whose base URL is wrong.
   */
  misplaced: (request, path, { settings, routes, familyOf }) => {
    const base = settings.apiPixBasePath
    const family = familyOf(path)
    if (base === undefined || family === 'api-pix' || family === 'sandbox') return undefined
    const meant = apiPixPathMeant(path, base, routes)
    if (meant === undefined) return undefined
    const route = `${request.method} ${targetPath(request.url)}`
    return new Refusal('ROUTE_NOT_FOUND', `Rota ${route} não encontrada: a API Pix desta sandbox está sob o caminho base ${base}, ` +
      `que --api-pix-base-path (SANDBOX_API_PIX_BASE_PATH) define; a operação seria ${request.method} ${meant}`)
  },
}
