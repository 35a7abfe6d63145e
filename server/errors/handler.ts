import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import { apiPixPathMeant, errorShapeOf, familyOf, httpReason, isGeneric, OAUTH_TOKEN_PATH, reportedCode, statusOf, targetPath, unroutedPath, type ErrorShape, type Family, type RouteUrl } from './families.js'
import { problemOf, violationsOf, type Violation } from './problems.js'
import { invalidRequest, Refusal, type Code } from './refusal.js'
import { validationIssues, validationMessages, type SchemaIssue } from './validation.js'
import { lingerOnClose } from '../linger.js'

export { familyOf, errorShapeOf, type Family }

/** The public route name the extended shape reports: the request path without `/api`. */
export function publicPath (path: string): string {
  return path.startsWith('/api/') ? path.slice(4) : path
}

/**
 * The path a request's family and error shape are read from: the route it reached, else its target
 * read as the router reads it. Never the raw target: in the absolute form (`http://host/balance`) or
 * percent-encoded (`/%62alance`) it names another family than the route that runs.
 */
const familyPathOf = (request: FastifyRequest): string => request.routeOptions.url ?? unroutedPath(request.url)

/** The base path API Pix is served under (`--api-pix-base-path`). */
const apiPixBaseOf = (request: FastifyRequest): string | undefined =>
  (request.server as { sandbox?: { config?: { apiPixBasePath?: string } } }).sandbox?.config?.apiPixBasePath

/**
 * A request's family: API Pix's for a route that says it is one (its config carries `apiPix`: under the
 * base path, its token, its payload locations), else the family of its path.
 */
export function familyOfRequest (request: FastifyRequest): Family {
  if (request.routeOptions.config?.apiPix !== undefined) return 'api-pix'
  return familyOf(familyPathOf(request), apiPixBaseOf(request))
}

/** The shape of a request's error body: its family's (the one given, else the request's), the tokens' own shapes aside. */
function shapeOfRequest (request: FastifyRequest, family = familyOfRequest(request)): ErrorShape {
  const path = familyPathOf(request)
  if (path === OAUTH_TOKEN_PATH) return 'oauth'
  return family === 'api-pix' ? 'api-pix' : errorShapeOf(path)
}

const userMessages: Record<number, string> = {
  400: 'Não foi possível processar a solicitação. Verifique os dados enviados.',
  401: 'Não autorizado. Obtenha um novo token de acesso.',
  403: 'Acesso negado.',
  404: 'Recurso não encontrado.',
  409: 'Conflito com um recurso existente.',
  413: 'A requisição é grande demais.',
  414: 'O endereço da requisição é longo demais.',
  415: 'Tipo de conteúdo não suportado.',
  422: 'A solicitação foi recusada pelo provedor de pagamento.',
  429: 'Muitas requisições. Aguarde alguns segundos e tente novamente.',
  500: 'Erro interno. Tente novamente mais tarde.',
}

/** A refusal as one family answers it: the status its table gives, the code the wire shows. */
export interface ErrorAnswer {
  status: number
  /** What the body and the request journal show: the business code, or HTTP_ERROR. */
  code: string
  /** Reported as a generic error in the extended shape (`error`, not `errorCode`). */
  generic: boolean
  messages: string[]
  english?: string[]
  details?: Record<string, unknown>
  userMessage?: string
  /** Not a refusal: a crash, or a refusal its family has no status for. Logged. */
  unexpected: boolean
  /** The outcome answered (the code of the refusal, before `reportedAs`). */
  outcome?: Code
  /** Invalid input: one entry per message, with the property it is about when known (API Pix's `violacoes`). */
  violations?: Violation[]
  /** The part of the request a validation error is about (`body`, `querystring`, `params`, `headers`). */
  part?: string
}

const internalError = (): Refusal => new Refusal('INTERNAL_ERROR', 'Erro interno do servidor', { en: 'Internal server error' })

/** Maps anything thrown into a refusal, translating Fastify's own errors (Portuguese, and English for the control plane). */
function refusalOf (err: unknown): Refusal | FastifyError {
  if (err instanceof Refusal) return err
  const e = err as FastifyError & { validation?: SchemaIssue[], validationContext?: string }
  if (e.validation) {
    const part = e.validationContext ?? 'body'
    const issues = validationIssues(e.validation, part)
    return invalidRequest(issues.map(i => i.message), { en: validationMessages(e.validation, part, 'en'), fields: issues.map(i => i.field) })
  }
  switch (e.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return invalidRequest('O corpo da requisição está vazio', { en: 'The request body is empty' })
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return notJson()
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new Refusal('BODY_TOO_LARGE', 'O corpo da requisição excede o tamanho máximo', { en: 'The request body exceeds the maximum size' })
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new Refusal('UNSUPPORTED_MEDIA_TYPE', 'Content-Type não suportado; envie application/json', { en: 'Unsupported Content-Type; send application/json' })
    // Raised by the router before any route runs (see frameworkErrors in app.ts).
    case 'FST_ERR_BAD_URL': return invalidRequest('A URL contém uma codificação percentual inválida', { en: 'The URL has an invalid percent-encoding' })
    case 'FST_ERR_MAX_PARAM_LENGTH': return new Refusal('URI_TOO_LONG', 'Um parâmetro da URL excede o tamanho máximo', { en: 'A URL parameter exceeds the maximum length' })
  }
  const status = frameworkStatus(e)
  if (status === 400 && (e instanceof SyntaxError || /JSON/.test(e.message ?? ''))) return notJson()
  if (status >= 500) return internalError()
  return e
}

const frameworkStatus = (e: FastifyError): number =>
  typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500

const notJson = (): Refusal => invalidRequest('O corpo da requisição não é um JSON válido', { en: 'The request body is not valid JSON' })

/**
 * What a family answers for anything thrown: a refusal goes through the table of errors/families.ts.
 * The one status that does not come from it is Fastify's own for a client error it raised that has no
 * code here (none of its known ones reach this far): the framework decided it, and no outcome did.
 */
export function answerOf (err: unknown, family: Family): ErrorAnswer {
  const refusal = refusalOf(err)
  if (!(refusal instanceof Refusal)) {
    const status = frameworkStatus(refusal)
    return { status, code: 'HTTP_ERROR', generic: true, messages: [refusal.message || httpReason[status] || 'Erro'], unexpected: false }
  }
  const status = statusOf(refusal.code, family)
  // A refusal of a code its family's table does not hold is a bug of the table, answered as a crash.
  if (status === undefined) return { ...answerOf(internalError(), family), unexpected: true }
  const violations = violationsOf(refusal)
  const part = (err as { validationContext?: string }).validationContext
  return {
    status,
    code: reportedCode(refusal.code),
    generic: isGeneric(refusal.code),
    messages: refusal.messages,
    english: refusal.english,
    details: refusal.details,
    userMessage: refusal.userMessage,
    unexpected: status >= 500 && !(err instanceof Refusal),
    outcome: refusal.code,
    ...(violations ? { violations } : {}),
    ...(part !== undefined ? { part } : {}),
  }
}

/** The answer to a request's error, in the request's family. */
export const answerFor = (err: unknown, request: FastifyRequest): ErrorAnswer => answerOf(err, familyOfRequest(request))

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

/**
 * API Pix's problem details (RFC 7807): the type the route names for the status, else the general one;
 * invalid input listed as `violacoes`, a body field named as BACEN does (`cob.valor.original`).
 */
function problemBody (answer: ErrorAnswer, request: FastifyRequest): Record<string, unknown> {
  const route = request.routeOptions.config?.apiPix
  const entity = answer.part === 'body' ? route?.entity : undefined
  const violacoes = answer.violations?.map(v => entity !== undefined && v.propriedade !== undefined ? { ...v, propriedade: `${entity}.${v.propriedade}` } : v)
  return { ...problemOf(answer.status, route, answer.messages.join('; '), violacoes) }
}

/** The headers an error answer carries besides its status: its content type, and how to authenticate after a 401. */
function errorHeaders (answer: ErrorAnswer, request: FastifyRequest, shape = shapeOfRequest(request)): Record<string, string> {
  switch (shape) {
    case 'api-pix': return {
      'content-type': 'application/problem+json; charset=utf-8',
      ...(answer.status === 401 ? { 'www-authenticate': 'Bearer realm="pix-sandbox"' } : {}),
    }
    // RFC 6749 §5.2: a failed client authentication is a 401 naming the scheme; no answer is cached (§5.1).
    case 'oauth': return {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...(answer.status === 401 ? { 'www-authenticate': 'Basic realm="pix-sandbox"' } : {}),
    }
    default: return { 'content-type': 'application/json; charset=utf-8' }
  }
}

export function errorBody (answer: ErrorAnswer, request: FastifyRequest, shape = shapeOfRequest(request)): Record<string, unknown> {
  if (shape === 'api-pix') return problemBody(answer, request)
  if (shape === 'oauth') return { error: oauthError(answer), error_description: answer.messages.join('; ') }
  const reason = httpReason[answer.status] ?? 'Error'
  if (shape === 'standard') {
    const body: Record<string, unknown> = {
      statusCode: answer.status,
      timestamp: new Date(request.server.sandbox.clock.now()).toISOString(),
      path: publicPath(targetPath(request.url)),
      method: request.method,
      // docs/gateway.md §7: `code` is HTTP_ERROR for generic errors or the business code (then also `errorCode`).
      code: answer.generic ? 'HTTP_ERROR' : answer.code,
      // Validation errors list one message per invalid field; everything else is one sentence.
      message: answer.code === 'HTTP_ERROR' && answer.status === 400 ? answer.messages : answer.messages.join('; '),
      userMessage: answer.userMessage ?? userMessages[answer.status] ?? reason,
      errorId: randomUUID(),
    }
    if (answer.generic) body.error = reason
    else body.errorCode = answer.code
    if (answer.details) body.details = answer.details
    return body
  }
  const messages = shape === 'sandbox' ? answer.english ?? answer.messages : answer.messages
  const body: Record<string, unknown> = { statusCode: answer.status, message: messages.join('; '), error: reason }
  if (shape === 'sandbox') body.code = answer.code
  if (shape === 'sandbox' && answer.details) body.details = answer.details
  return body
}

/** Answers an error in the request's family, or in the family given (a 404 of API Pix outside its base path). */
function sendError (error: unknown, request: FastifyRequest, reply: FastifyReply, family = familyOfRequest(request)): void {
  const answer = answerOf(error, family)
  const shape = shapeOfRequest(request, family)
  // Refused before its body was read (413, 415): the connection reads the rest before it closes.
  if (request.raw.complete === false) lingerOnClose(request.raw.socket)
  if (answer.unexpected) request.log.error({ err: error }, 'unhandled error')
  void reply.status(answer.status).headers(errorHeaders(answer, request, shape)).send(errorBody(answer, request, shape))
}

/**
 * Fastify answers a malformed percent-encoding or an over-long path parameter itself, before any route
 * or error handler, in its own shape (with `code`, in English); this renders them in the family's shape.
 */
export function frameworkErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  sendError(error, request, reply)
}

/** The refusal of a request that reaches no route. */
export function routeNotFound (request: FastifyRequest): Refusal {
  const route = `${request.method} ${targetPath(request.url)}`
  return new Refusal('ROUTE_NOT_FOUND', `Rota ${route} não encontrada`, { en: `Route ${route} not found` })
}

/**
 * The 404 of a path that is an operation of API Pix under another prefix than its base path (`/v1/cob`
 * where API Pix is at /v2): in API Pix's shape, naming the base path, the path meant and the setting
 * that moves it, since a client that calls API Pix there is one whose base URL is wrong.
 */
function apiPixElsewhere (request: FastifyRequest, meant: string, base: string): Refusal {
  const route = `${request.method} ${targetPath(request.url)}`
  return new Refusal('ROUTE_NOT_FOUND', `Rota ${route} não encontrada: a API Pix desta sandbox está sob o caminho base ${base}, ` +
    `que --api-pix-base-path (SANDBOX_API_PIX_BASE_PATH) define; a operação seria ${request.method} ${meant}`)
}

/** `routes`: every route of the app as it is registered (it fills as they are), so a 404 can tell an API Pix path under a wrong prefix. */
export function registerErrorHandlers (app: FastifyInstance, routes: readonly RouteUrl[] = []): void {
  app.setErrorHandler((error, request, reply) => { sendError(error, request, reply) })
  app.setNotFoundHandler((request, reply) => {
    const base = apiPixBaseOf(request)
    const meant = base === undefined ? undefined : apiPixPathMeant(unroutedPath(request.url), base, routes)
    if (meant !== undefined) sendError(apiPixElsewhere(request, meant, base!), request, reply, 'api-pix')
    else sendError(routeNotFound(request), request, reply)
  })
}

/**
 * The answer when the data file could not be written: 503 in the family's shape, saying that the
 * change was not applied (it was rolled back) and where to look. Gateway families keep Portuguese.
 */
export function storageUnavailable (request: FastifyRequest, cause: unknown): { status: number, headers: Record<string, string>, body: string } {
  const reason = cause instanceof Error ? cause.message : String(cause)
  const refusal = new Refusal('STORAGE_UNAVAILABLE', 'Não foi possível gravar a alteração; nada foi aplicado. Tente novamente em instantes.', {
    en: `The data file could not be written, so the change was not applied (${reason}); see GET /__sandbox/health`,
    userMessage: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
  })
  const answer = answerFor(refusal, request)
  return { status: answer.status, headers: errorHeaders(answer, request), body: JSON.stringify(errorBody(answer, request)) }
}
