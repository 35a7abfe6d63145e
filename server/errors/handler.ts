import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { familyOfPath, httpReason, isGeneric, reportedCode, targetPath, unroutedPath, type ErrorAnswer, type ErrorFamily, type ErrorShape, type Family, type FamilySettings, type RouteUrl } from './families.js'
import { violationsOf } from './problems.js'
import { invalidRequest, Refusal } from './refusal.js'
import { validationIssues, validationMessages, type SchemaIssue } from './validation.js'
import { lingerOnClose } from '../linger.js'

export type { ErrorAnswer }

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
 * What a family answers for anything thrown: a refusal goes through the family's column of the error
 * table. The one status that does not come from it is Fastify's own for a client error it raised that
 * has no code here (none of its known ones reach this far): the framework decided it, and no outcome did.
 */
export function answerOf (err: unknown, family: ErrorFamily): ErrorAnswer {
  const refusal = refusalOf(err)
  if (!(refusal instanceof Refusal)) {
    const status = frameworkStatus(refusal)
    return { status, code: 'HTTP_ERROR', generic: true, messages: [refusal.message || httpReason[status] || 'Erro'], unexpected: false }
  }
  const status = family.answers[refusal.code]
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

/** The refusal of a request that reaches no route. */
export function routeNotFound (request: FastifyRequest): Refusal {
  const route = `${request.method} ${targetPath(request.url)}`
  return new Refusal('ROUTE_NOT_FOUND', `Rota ${route} não encontrada`, { en: `Route ${route} not found` })
}

/**
 * How the app answers errors, over its families (the control plane's, then each dialect's, in the
 * registry's order) and the settings they read (where API Pix is mounted).
 */
export function errorHandling (families: readonly ErrorFamily[], settings: FamilySettings) {
  const byName = new Map<Family, ErrorFamily>(families.map(f => [f.name, f]))

  /** A family by its name (an unknown one is a bug). */
  const family = (name: Family): ErrorFamily => {
    const found = byName.get(name)
    if (found === undefined) throw new Error(`no error family ${name}`)
    return found
  }

  /** The family of a path, when no route says: the longest claim. */
  const familyOf = (path: string): ErrorFamily => familyOfPath(families, path, settings)

  /** A route's family: the one its config says it belongs to (API Pix's `config.apiPix`), else its path's. */
  const familyOfRoute = (route: { url: string, config?: FastifyContextConfig }): ErrorFamily =>
    families.find(f => route.config !== undefined && f.owns?.(route.config) === true) ?? familyOf(route.url)

  const familyOfRequest = (request: FastifyRequest): ErrorFamily =>
    familyOfRoute({ url: familyPathOf(request), config: request.routeOptions.config })

  /** The shape of a request's error body: its family's at its path. */
  const shapeOfRequest = (request: FastifyRequest, of: ErrorFamily = familyOfRequest(request)): ErrorShape => of.shapeOf(familyPathOf(request))

  /** The answer to a request's error, in the request's family. */
  const answerFor = (err: unknown, request: FastifyRequest): ErrorAnswer => answerOf(err, familyOfRequest(request))

  /** Answers an error in the request's family, or in the family given (a 404 of API Pix outside its base path). */
  const sendError = (error: unknown, request: FastifyRequest, reply: FastifyReply, of: ErrorFamily = familyOfRequest(request)): void => {
    const answer = answerOf(error, of)
    const shape = shapeOfRequest(request, of)
    // Refused before its body was read (413, 415): the connection reads the rest before it closes.
    if (request.raw.complete === false) lingerOnClose(request.raw.socket)
    if (answer.unexpected) request.log.error({ err: error }, 'unhandled error')
    void reply.status(answer.status).headers(shape.headers(answer)).send(shape.body(answer, request))
  }

  return {
    families,
    family,
    familyOf,
    familyOfRoute,
    familyOfRequest,
    shapeOfRequest,
    answerFor,

    /** A status of an outcome in a family, undefined when the family cannot meet it. */
    statusOf: (code: Parameters<typeof reportedCode>[0], name: Family): number | undefined => family(name).answers[code],

    /**
     * Fastify answers a malformed percent-encoding or an over-long path parameter itself, before any
     * route or error handler, in its own shape (with `code`, in English); this renders them in the
     * family's shape.
     */
    frameworkErrorHandler: (error: unknown, request: FastifyRequest, reply: FastifyReply): void => { sendError(error, request, reply) },

    /** `routes`: every route of the app as it is registered (it fills as they are), so a 404 can tell a path under a wrong prefix. */
    register (app: FastifyInstance, routes: readonly RouteUrl[] = []): void {
      app.setErrorHandler((error, request, reply) => { sendError(error, request, reply) })
      app.setNotFoundHandler((request, reply) => {
        const path = unroutedPath(request.url)
        for (const f of families) {
          const meant = f.misplaced?.(request, path, { settings, routes, familyOf: p => familyOf(p).name })
          if (meant !== undefined) return sendError(meant, request, reply, f)
        }
        sendError(routeNotFound(request), request, reply)
      })
    },

    /**
     * The answer when the data file could not be written: 503 in the family's shape, saying that the
     * change was not applied (it was rolled back) and where to look. Gateway families keep Portuguese.
     */
    storageUnavailable (request: FastifyRequest, cause: unknown): { status: number, headers: Record<string, string>, body: string } {
      const reason = cause instanceof Error ? cause.message : String(cause)
      const refusal = new Refusal('STORAGE_UNAVAILABLE', 'Não foi possível gravar a alteração; nada foi aplicado. Tente novamente em instantes.', {
        en: `The data file could not be written, so the change was not applied (${reason}); see GET /__sandbox/health`,
        userMessage: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
      })
      const answer = answerFor(refusal, request)
      const shape = shapeOfRequest(request)
      return { status: answer.status, headers: shape.headers(answer), body: JSON.stringify(shape.body(answer, request)) }
    },
  }
}

export type ErrorHandling = ReturnType<typeof errorHandling>
