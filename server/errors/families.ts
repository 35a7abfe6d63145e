import type { FastifyContextConfig, FastifyRequest, RouteOptions } from 'fastify'
import type { Config } from '../config.js'
import type { Code, CoreCode, Refusal } from './refusal.js'
import type { Violation } from './problems.js'

/**
 * The error families (docs/gateway.md §7, RFC 7807 for API Pix, the control plane's): each answers an
 * outcome with its own status (its column of the error table) and its own body (its shape). Each
 * dialect brings its families (server/dialects/), the control plane its own (routes/sandbox/errors.ts);
 * the error handler, the declared error responses and the request journal read the app's list. One
 * vocabulary for all of them: a family's name (`standard`, `central-bank`, `api-pix`, `sandbox`).
 */
export type Family = string

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

/** The body of an error: its media type, the OpenAPI component of its schema, and how an answer reads in it. */
export interface ErrorShape {
  readonly name: string
  /** The `$id` of its body's schema, a component of the OpenAPI document. */
  readonly schemaId: string
  /** Its media type where it is not application/json (API Pix's problem details). */
  readonly mediaType?: string
  headers (answer: ErrorAnswer): Record<string, string>
  body (answer: ErrorAnswer, request: FastifyRequest): Record<string, unknown>
}

/** What the families read of the settings: where a dialect is mounted (API Pix's base path). */
export type FamilySettings = Readonly<Partial<Config>>

/** Every route the app registered, with the family it answers in (a 404 may tell what a wrong path meant). */
export interface RouteUrl { readonly method: string, readonly url: string, readonly family?: Family }

/** An error family: its column of the error table, the paths and routes it answers for, its shapes. */
export interface ErrorFamily {
  readonly name: Family
  /** The status of each outcome the family can meet; a refusal of another code is a bug, answered 500. */
  readonly answers: Readonly<Partial<Record<Code, number>>>
  /**
   * How much of a path the family claims, for a request no route says the family of (an unknown
   * route, a body-parser failure): the length of the prefix or path it recognises, undefined for none.
   * The longest claim wins (API Pix's base `/api/v2` over the standard family's `/api/`); a family that
   * claims every path with 0 answers the rest.
   */
  claim? (path: string, settings: FamilySettings): number | undefined
  /** Whether a route is the family's by its config, wherever it is mounted (API Pix's token and payloads). */
  owns? (config: FastifyContextConfig): boolean
  /** The shape of its error bodies at a path (a family's token may answer in another one). */
  shapeOf (path: string): ErrorShape
  /** The statuses any of its routes can answer whatever its handler does (server/schemas/declared.ts); it may name the route's security too. */
  declare? (route: RouteOptions, schema: { security?: Array<Record<string, string[]>> }): readonly number[]
  /**
   * A request that reached no route, whose path the family recognises as one of its operations
   * mounted elsewhere (API Pix under another prefix): the refusal it answers instead of the path's
   * family's 404.
   */
  misplaced? (request: FastifyRequest, path: string, context: { settings: FamilySettings, routes: readonly RouteUrl[], familyOf: (path: string) => Family }): Refusal | undefined
}

/** What an outcome is on the wire, whatever the family. */
export interface Outcome {
  /** The code the body and the request journal show, where it is not the outcome's own name. */
  readonly reportedAs?: 'HTTP_ERROR' | 'PIX_DUPLICATE_EXTERNAL_ID'
  /**
   * The extended shape reports it as a generic error (`code: HTTP_ERROR` and `error`) rather than a
   * business one (`code` and `errorCode`): what the gateway does with its generic HTTP errors.
   */
  readonly generic?: true
}

/**
 * Every outcome of the core (a new code without a row does not compile), and what the wire shows of it;
 * its status in each family is that family's column. A dialect's own codes show as they are.
 * test/unit/families.test.ts checks that every outcome answers in some family of the app.
 */
export const OUTCOMES: Record<CoreCode, Outcome> = {
  INVALID_REQUEST: { reportedAs: 'HTTP_ERROR' },
  INVALID_CREDENTIALS: { reportedAs: 'HTTP_ERROR' },
  CERTIFICATE_NOT_LINKED: { reportedAs: 'HTTP_ERROR' },
  UNSUPPORTED_GRANT_TYPE: {},
  INVALID_SCOPE: {},
  ROUTE_NOT_FOUND: { reportedAs: 'HTTP_ERROR' },
  BODY_TOO_LARGE: { reportedAs: 'HTTP_ERROR' },
  URI_TOO_LONG: { reportedAs: 'HTTP_ERROR' },
  UNSUPPORTED_MEDIA_TYPE: { reportedAs: 'HTTP_ERROR' },
  UNAUTHORIZED: { generic: true },
  ACCESS_DENIED: { generic: true },
  ADMIN_TOKEN_REQUIRED: { generic: true },
  RATE_LIMITED: {},
  SERVICE_UNAVAILABLE: { generic: true },
  STORAGE_UNAVAILABLE: { generic: true },
  INTERNAL_ERROR: { generic: true },
  NOT_FOUND: { generic: true },
  ACCOUNT_NOT_FOUND: { generic: true },
  TRANSACTION_NOT_FOUND: { generic: true },
  CHARGE_NOT_FOUND: {},
  MED_NOT_FOUND: {},
  KEY_NOT_FOUND: {},
  WEBHOOK_NOT_FOUND: { generic: true },
  DELIVERY_NOT_FOUND: {},
  REQUEST_NOT_FOUND: {},
  SCENARIO_NOT_FOUND: {},
  PIX_INVALID_AMOUNT: {},
  PIX_INVALID_PIX_KEY: {},
  PIX_DUPLICATE_EXTERNAL_ID: {},
  QRCODE_DUPLICATE_EXTERNAL_ID: { reportedAs: 'PIX_DUPLICATE_EXTERNAL_ID' },
  PIX_INSUFFICIENT_BALANCE: {},
  PIX_TRANSACTION_LIMIT_EXCEEDED: {},
  PIX_DAILY_LIMIT_EXCEEDED: {},
  PIX_NIGHT_LIMIT_EXCEEDED: {},
  PIX_AMOUNT_MISMATCH: {},
  QRCODE_ALREADY_PAID: {},
  QRCODE_NOT_AVAILABLE: {},
  PROVIDER_REJECTED: { generic: true },
  ISPB_DENIED: {},
  PIX_SPLIT_AMOUNT_EXCEEDED: {},
  PROVIDER_EXPIRATION_BELOW_MINIMUM: {},
  PROVIDER_UNAVAILABLE: {},
  COB_TXID_EXISTS: {},
  COB_NOT_ACTIVE: {},
  PAYLOAD_GONE: {},
  INVALID_PIX_CODE: {},
  ACCOUNT_LIMIT_REACHED: {},
  REFUND_NOT_ALLOWED: {},
  REFUND_DEADLINE_EXCEEDED: {},
  REFUND_AMOUNT_EXCEEDS_ORIGINAL: {},
  DEVOLUCAO_ID_EXISTS: { generic: true },
  MED_ALREADY_OPEN: {},
  MED_INVALID_TRANSITION: {},
  MED_ANALYSIS_REQUIRED: {},
  MED_ANALYSIS_NOT_ALLOWED: {},
  REC_INVALID_TRANSITION: {},
  INVALID_WEBHOOK_URL: {},
  WEBHOOK_URL_IS_SANDBOX: {},
  INVALID_WEBHOOK_HEADER: {},
  WEBHOOK_HEADER_NOT_ALLOWED: {},
  TOO_MANY_WEBHOOK_HEADERS: {},
  WEBHOOK_LIMIT_REACHED: {},
  NO_RECEIVER: {},
  UNKNOWN_SCENARIO: {},
  INVALID_SCENARIO_PARAMETER: {},
  INVALID_DOCUMENT: {},
  INVALID_PIX_KEY: {},
  INSUFFICIENT_BALANCE: {},
  BALANCE_LIMIT: {},
  CLOCK_OUT_OF_RANGE: {},
  CLOCK_BACKWARDS: {},
  TRANSACTION_NOT_PENDING: {},
  VERIFICATION_FAILED: {},
  WAIT_TIMEOUT: {},
}

/** The code the body and the request journal show for an outcome. */
export function reportedCode (code: Code): string {
  return outcomeOf(code).reportedAs ?? code
}

const outcomeOf = (code: Code): Outcome => (OUTCOMES as Partial<Record<Code, Outcome>>)[code] ?? {}

/** Whether the extended shape reports the outcome as a generic error rather than a business one. */
export function isGeneric (code: Code): boolean {
  const outcome = outcomeOf(code)
  return outcome.generic === true || outcome.reportedAs === 'HTTP_ERROR'
}

/**
 * The family of a path: the one of the longest claim, the first in the list on a tie. Unknown routes
 * and body-parser failures get one too.
 */
export function familyOfPath (families: readonly ErrorFamily[], url: string, settings: FamilySettings = {}): ErrorFamily {
  const path = url.split('?')[0]
  let best: ErrorFamily | undefined
  let length = -1
  for (const family of families) {
    const claimed = family.claim?.(path, settings)
    if (claimed !== undefined && claimed > length) {
      best = family
      length = claimed
    }
  }
  if (best === undefined) throw new Error(`no error family claims ${path}: one family must claim every path (0)`)
  return best
}

/** The scheme and host of an absolute-form target (`GET http://host/balance HTTP/1.1`, RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i

/**
 * The path of a request target, without its query and without the scheme and host of the absolute
 * form, which the router reads as the path they name (`http://host/balance` is `/balance`).
 */
export function targetPath (target: string): string {
  const q = target.indexOf('?')
  const path = q === -1 ? target : target.slice(0, q)
  return path.charCodeAt(0) === 47 ? path : path.replace(ABSOLUTE_FORM, '') || '/'
}

/**
 * The path whose family answers a request that matched no route: its target's path as the router
 * reads it (percent-encoded characters decoded, as `/%62alance` reaches `/balance`), doubled slashes
 * read as one, so that `//balance` is an unknown route of the standard family.
 */
export function unroutedPath (target: string): string {
  const path = targetPath(target).replace(/\/{2,}/g, '/')
  try {
    return decodeURI(path)
  } catch {
    return path
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
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}
