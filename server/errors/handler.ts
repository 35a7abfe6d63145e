import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import { ApiError, httpReason } from './api-error.js'
import { validationMessages, type SchemaIssue } from './validation.js'

/**
 * Renders every error in the shape of its route family (spec section 7): the extended shape for the
 * standard family (`/api/*` but the token, and `/balance`), the simple shape for the central-bank
 * family and token issuance, and the simple shape plus `code` for the `/__sandbox` control plane.
 * The family comes from the URL so that unknown routes and body-parser failures get it too.
 */
export type Family = 'standard' | 'simple' | 'sandbox'

export function familyOf (url: string): Family {
  const path = url.split('?')[0]
  if (path.startsWith('/__sandbox')) return 'sandbox'
  if (path === '/api/auth/token') return 'simple'
  if (path.startsWith('/api/') || path === '/balance') return 'standard'
  return 'simple'
}

/** The public route name the extended shape reports: the request path without `/api`. */
export function publicPath (url: string): string {
  const path = url.split('?')[0]
  return path.startsWith('/api/') ? path.slice(4) : path
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

/** Maps anything thrown into an ApiError, translating Fastify's own errors (Portuguese, and English for the control plane). */
export function toApiError (err: unknown): ApiError {
  if (err instanceof ApiError) return err
  const e = err as FastifyError & { validation?: SchemaIssue[], validationContext?: string }
  if (e.validation) {
    const part = e.validationContext ?? 'body'
    return new ApiError(400, 'HTTP_ERROR', validationMessages(e.validation, part), { en: validationMessages(e.validation, part, 'en') })
  }
  const status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500
  switch (e.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return new ApiError(400, 'HTTP_ERROR', 'O corpo da requisição está vazio', { en: 'The request body is empty' })
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return notJson()
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new ApiError(413, 'HTTP_ERROR', 'O corpo da requisição excede o tamanho máximo', { en: 'The request body exceeds the maximum size' })
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new ApiError(415, 'HTTP_ERROR', 'Content-Type não suportado; envie application/json', { en: 'Unsupported Content-Type; send application/json' })
    // Raised by the router before any route runs (see frameworkErrors in app.ts).
    case 'FST_ERR_BAD_URL': return new ApiError(400, 'HTTP_ERROR', 'A URL contém uma codificação percentual inválida', { en: 'The URL has an invalid percent-encoding' })
    case 'FST_ERR_MAX_PARAM_LENGTH': return new ApiError(414, 'HTTP_ERROR', 'Um parâmetro da URL excede o tamanho máximo', { en: 'A URL parameter exceeds the maximum length' })
  }
  if (status === 400 && (e instanceof SyntaxError || /JSON/.test(e.message ?? ''))) return notJson()
  if (status >= 500) return new ApiError(500, 'INTERNAL_ERROR', 'Erro interno do servidor', { business: false, en: 'Internal server error' })
  return new ApiError(status, 'HTTP_ERROR', e.message || httpReason[status] || 'Erro')
}

const notJson = (): ApiError => new ApiError(400, 'HTTP_ERROR', 'O corpo da requisição não é um JSON válido', { en: 'The request body is not valid JSON' })

export function errorBody (err: ApiError, request: FastifyRequest): Record<string, unknown> {
  const family = familyOf(request.url)
  const reason = httpReason[err.statusCode] ?? 'Error'
  if (family === 'standard') {
    const body: Record<string, unknown> = {
      statusCode: err.statusCode,
      timestamp: new Date(request.server.sandbox.clock.now()).toISOString(),
      path: publicPath(request.url),
      method: request.method,
      // docs/gateway.md §7: `code` is HTTP_ERROR for generic errors or the business code (then also `errorCode`).
      code: err.business ? err.code : 'HTTP_ERROR',
      // Validation errors list one message per invalid field; everything else is one sentence.
      message: err.code === 'HTTP_ERROR' && err.statusCode === 400 ? err.messages : err.messages.join('; '),
      userMessage: err.userMessage ?? userMessages[err.statusCode] ?? reason,
      errorId: randomUUID(),
    }
    if (err.business) body.errorCode = err.code
    else body.error = reason
    if (err.details) body.details = err.details
    return body
  }
  const messages = family === 'sandbox' ? err.english ?? err.messages : err.messages
  const body: Record<string, unknown> = { statusCode: err.statusCode, message: messages.join('; '), error: reason }
  if (family === 'sandbox') body.code = err.code
  if (family === 'sandbox' && err.details) body.details = err.details
  return body
}

/**
 * Fastify answers a malformed percent-encoding or an over-long path parameter itself, before any route
 * or error handler, in its own shape (with `code`, in English); this renders them in the family's shape.
 */
export function frameworkErrorHandler (error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error)
  void reply.status(apiError.statusCode).send(errorBody(apiError, request))
}

export function registerErrorHandlers (app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error)
    if (apiError.statusCode >= 500 && !(error instanceof ApiError)) request.log.error({ err: error }, 'unhandled error')
    void reply.status(apiError.statusCode).send(errorBody(apiError, request))
  })
  app.setNotFoundHandler((request, reply) => {
    const route = `${request.method} ${request.url.split('?')[0]}`
    const err = new ApiError(404, 'HTTP_ERROR', `Rota ${route} não encontrada`, { business: false, en: `Route ${route} not found` })
    void reply.status(404).send(errorBody(err, request))
  })
}

/**
 * The answer when the data file could not be written: 503 in the family's shape, saying that the
 * change was not applied (it was rolled back) and where to look. Gateway families keep Portuguese.
 */
export function storageUnavailable (request: FastifyRequest, cause: unknown): string {
  const family = familyOf(request.url)
  const reason = cause instanceof Error ? cause.message : String(cause)
  const message = family === 'sandbox'
    ? `The data file could not be written, so the change was not applied (${reason}); see GET /__sandbox/health`
    : 'Não foi possível gravar a alteração; nada foi aplicado. Tente novamente em instantes.'
  const err = new ApiError(503, 'STORAGE_UNAVAILABLE', message, { business: false, userMessage: 'Serviço temporariamente indisponível. Tente novamente em instantes.' })
  return JSON.stringify(errorBody(err, request))
}
