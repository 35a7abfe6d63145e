/**
 * The error every layer throws. It carries a stable code (`HTTP_ERROR` for generic failures or a
 * business code such as `PIX_INSUFFICIENT_BALANCE`) and Portuguese texts; the handler of the route's
 * family decides the body shape (spec section 7).
 */
export interface ApiErrorOptions {
  /** Business errors report `errorCode` in the extended shape; generic ones report `error`. */
  business?: boolean
  details?: Record<string, unknown>
  userMessage?: string
  /**
   * The same text in English, for an error the control plane (`/__sandbox/*`) can answer too: the
   * gateway's families speak Portuguese as the gateway does, the control plane English.
   */
  en?: string | string[]
}

export class ApiError extends Error {
  readonly statusCode: number
  readonly code: string
  readonly messages: string[]
  readonly business: boolean
  readonly details?: Record<string, unknown>
  readonly userMessage?: string
  readonly english?: string[]

  constructor (statusCode: number, code: string, message: string | string[], opts: ApiErrorOptions = {}) {
    const messages = Array.isArray(message) ? message : [message]
    super(messages.join('; '))
    this.statusCode = statusCode
    this.code = code
    this.messages = messages
    this.business = opts.business ?? code !== 'HTTP_ERROR'
    this.details = opts.details
    this.userMessage = opts.userMessage
    if (opts.en !== undefined) this.english = Array.isArray(opts.en) ? opts.en : [opts.en]
  }
}

export const httpReason: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

export const badRequest = (message: string | string[], code = 'HTTP_ERROR', opts?: ApiErrorOptions): ApiError =>
  new ApiError(400, code, message, opts)
export const unauthorized = (message = 'Token de acesso ausente, inválido ou expirado'): ApiError =>
  new ApiError(401, 'UNAUTHORIZED', message, { business: false })
export const forbidden = (message: string): ApiError => new ApiError(403, 'FORBIDDEN', message, { business: false })
export const notFound = (message: string, code = 'NOT_FOUND', opts: ApiErrorOptions = {}): ApiError => new ApiError(404, code, message, { business: false, ...opts })
export const conflict = (message: string, code = 'CONFLICT', opts?: ApiErrorOptions): ApiError => new ApiError(409, code, message, opts)
export const unprocessable = (message: string, code = 'UNPROCESSABLE', opts?: ApiErrorOptions): ApiError => new ApiError(422, code, message, opts)
/** 429 in the family's shape, as the MED list's rate limit and the RATE_LIMITED fault answer it (with a Retry-After header). */
export const tooManyRequests = (retryAfterSeconds: number): ApiError =>
  new ApiError(429, 'RATE_LIMITED', `Muitas requisições; tente novamente em ${retryAfterSeconds} segundos`, { details: { retryAfterSeconds } })
