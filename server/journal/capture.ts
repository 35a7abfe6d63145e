import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorAnswer } from '../errors/families.js'
import { targetPath } from '../errors/families.js'
import { accountIdOf, type RequestJournal } from './journal.js'
import { maskHeaders, maskJsonText, maskValue, secretValues } from './redact.js'
import { jsonLength } from './size.js'

/**
 * Where requests enter the journal and the console: one record and one log line per request, written
 * when its answer has gone out. Kept out of the routes and services: they know nothing of either.
 */
export interface CapturePorts {
  journal: RequestJournal
  /** How the request's family answers an error (errors/handler.ts): the journal keeps its code. */
  answerFor: (err: unknown, request: FastifyRequest) => Pick<ErrorAnswer, 'code'>
  /** Sandbox time, ms. */
  now: () => number
  /** The id (jti) and account of a token whose signature checks, else null. */
  token: (token: string) => { id: string, accountId: number | null } | null
  /**
   * The account a token was issued to while it still holds that life (incarnation), else null: a token
   * from before a reset names an id another account may hold now, and its 401 is not that account's.
   */
  accountOfClaims: (claims: NonNullable<FastifyRequest['tokenClaims']>) => number | null
  accountOfClientId: (clientId: string) => number | null
  accountOfTransaction: (id: string) => number | null
  /** Credentials the sandbox itself holds (the admin token), masked wherever they turn up. */
  secrets: readonly string[]
  /** false keeps every field but the two bodies (`--journal-bodies false`). */
  keepBodies: boolean
  /** Whether a log line is written at all (no logger: not even built). */
  log: boolean
}

/**
 * What an entry keeps of each body at most, as JSON text: a larger one is kept as a note of its size, so
 * a snapshot export or a padded request costs the journal a line (docs/assumptions.md).
 */
export const BODY_LIMIT = 64 * 1024

declare module 'fastify' {
  interface FastifyInstance {
    /** Journals a request that got no answer, with status 0 (see server/faults.ts). */
    journalUnanswered: (request: FastifyRequest, reply: FastifyReply) => void
  }
  interface FastifyRequest {
    /** What the journal needs from onSend and onError, read again in onResponse. */
    journalAnswer: unknown
    journalCode: string | null
  }
}

/** The sandbox's own tools, which mark their requests with `X-Sandbox-Client`. */
const TOOLS: ReadonlySet<unknown> = new Set(['dashboard', 'cli'])

/**
 * The reads of the sandbox's own tools (the dashboard's refreshes, the CLI's `tail` polling the delivery
 * log), health checks and reads of the journal: at debug level in the log and not journaled, so they
 * never bury what an integration did. Only control-plane reads: the header cannot hide a gateway request.
 */
function isPolling (request: FastifyRequest, path: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  return path === '/__sandbox/health' || path.startsWith('/__sandbox/requests') || path.startsWith('/dashboard') ||
    (path.startsWith('/__sandbox/') && TOOLS.has(request.headers['x-sandbox-client']))
}

/**
 * Not journaled: what is not the gateway API nor the control plane (the dashboard page, the API docs),
 * and the journal's own routes (a count or a verify would otherwise count itself).
 */
const notKept = (path: string): boolean => path.startsWith('/dashboard') || path.startsWith('/docs') || path === '/openapi.json' || path === '/favicon.ico' || path.startsWith('/__sandbox/requests')

const idempotencyKeyOf = (request: FastifyRequest): string | null => {
  const v = request.headers['x-idempotency-key']
  return typeof v === 'string' ? v : null
}

async function capture (app: FastifyInstance, ports: CapturePorts): Promise<void> {
  app.decorateRequest('journalAnswer', null)
  app.decorateRequest('journalCode', null)

  // The code an error carried, whichever family's shape rendered it (the simple shape has no `code`).
  app.addHook('onError', (request, _reply, error, done) => {
    request.journalCode = ports.answerFor(error, request).code
    done()
  })
  app.addHook('onSend', (request, _reply, payload, done) => {
    request.journalAnswer = payload
    done(null, payload)
  })
  // A request that never answered (a transport fault reset or held its connection): Fastify runs no
  // onResponse for it, so server/faults.ts records it here, with status 0.
  app.decorate('journalUnanswered', (request: FastifyRequest, reply: FastifyReply) => keep(request, reply, 0))
  app.addHook('onResponse', (request, reply, done) => {
    keep(request, reply, reply.statusCode)
    done()
  })

  function keep (request: FastifyRequest, reply: FastifyReply, status: number): void {
    const durationMs = Math.round(reply.elapsedTime * 100) / 100
    const path = targetPath(request.url)
    const polling = isPolling(request, path)
    const applied = reply.getHeader('x-sandbox-scenario-applied')
    const scenarios = typeof applied === 'string' ? applied.split(',').map(s => s.split(';')[0]) : NO_SCENARIOS
    const code = request.journalCode ?? (status >= 400 ? codeIn(request.journalAnswer) : null)
    // The authenticate hook's claims when it ran (no second parse and lookup of the token), else the header's.
    const claims = request.tokenClaims
    const bearer = claims === undefined ? bearerOf(request.headers.authorization) : null
    const token = claims !== undefined ? { id: claims.jti, accountId: ports.accountOfClaims(claims) } : bearer === null ? null : ports.token(bearer)
    const accountId = request.account?.id ?? (token !== null ? existing(token.accountId, ports) : accountNamedBy(request, ports))
    if (ports.log) {
      const line = { method: request.method, path, statusCode: status, durationMs, accountId, ...(scenarios.length > 0 ? { scenarios } : {}), ...(code !== null ? { code } : {}) }
      if (polling) request.log.debug(line, 'request')
      else request.log.info(line, 'request')
    }
    if (!polling && !notKept(path)) ports.journal.record(recordOf(request, reply, ports, { path, status, durationMs, scenarios, code, accountId, tokenId: token?.id ?? null }))
  }
}

function bearerOf (header: string | undefined): string | null {
  if (header === undefined) return null
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1] : null
}

function codeIn (answer: unknown): string | null {
  if (typeof answer !== 'string') return null
  const match = /"errorCode":"([^"]+)"/.exec(answer) ?? /"code":"([^"]+)"/.exec(answer)
  return match ? match[1] : null
}

/**
 * What most entries hold, shared (frozen) by all of them instead of one empty array or object each:
 * the journal keeps a thousand entries per account.
 */
const NO_SCENARIOS = Object.freeze([]) as unknown as string[]
const NO_QUERY: Record<string, unknown> = Object.freeze({})

const asRecord = (v: unknown): Record<string, unknown> | null => v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : null

/** The id when it names an account that exists: whatever else a request says is of no account. */
function existing (value: unknown, ports: CapturePorts): number | null {
  const id = accountIdOf(value)
  return id !== null && ports.journal.accountExists(id) ? id : null
}

/**
 * A request without a token: the existing account its body, query or path names (a token request: its
 * clientId's; a creation: the new one).
 */
function accountNamedBy (request: FastifyRequest, ports: CapturePorts): number | null {
  const body = asRecord(request.body)
  const query = asRecord(request.query)
  for (const v of [body?.accountId, query?.accountId]) {
    const id = existing(typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : v, ports)
    if (id !== null) return id
  }
  // An account's creation belongs to the account it created.
  if (request.routeOptions.url === '/__sandbox/accounts' && request.method === 'POST' && typeof request.journalAnswer === 'string') {
    const created = /"accountId":(\d+)/.exec(request.journalAnswer)
    if (created) return existing(Number(created[1]), ports)
  }
  if (request.routeOptions.url === '/__sandbox/accounts/:id') {
    const id = existing(Number((request.params as Record<string, unknown>).id), ports)
    if (id !== null) return id
  }
  // A control-plane call about a transaction (read, settle, fail) belongs to the transaction's account.
  const route = request.routeOptions.url
  if (route !== undefined && route.startsWith('/__sandbox/transactions/:id')) {
    const id = (request.params as Record<string, unknown>).id
    if (typeof id === 'string') return ports.accountOfTransaction(id)
  }
  return typeof body?.clientId === 'string' ? ports.accountOfClientId(body.clientId) : null
}

interface Known { path: string, status: number, durationMs: number, scenarios: string[], code: string | null, accountId: number | null, tokenId: string | null }

function recordOf (request: FastifyRequest, reply: FastifyReply, ports: CapturePorts, k: Known): Parameters<RequestJournal['record']>[0] {
  const answer = request.journalAnswer
  const issued = typeof answer === 'string' && answer.includes('"access_token"') ? /"access_token":"([^"]+)"/.exec(answer)?.[1] : undefined
  const tokenId = k.tokenId ?? (issued ? ports.token(issued)?.id ?? null : null)
  const secrets = secretValues(request.headers, request.body, issued ? [...ports.secrets, issued] : ports.secrets)
  const body = asRecord(request.body)
  const query = asRecord(request.query) ?? NO_QUERY
  const externalId = body?.externalId ?? query.externalId
  const route = request.routeOptions.url ?? null
  return {
    requestId: request.id,
    atMs: ports.now(),
    wallMs: Date.now(),
    method: request.method,
    // The route's own string when the path is the route (no parameters): one copy for every entry.
    path: k.path === route ? route : k.path,
    query: Object.keys(query).length === 0 ? NO_QUERY : maskValue(query, secrets),
    route,
    params: asRecord(request.params) ?? {},
    status: k.status,
    durationMs: k.durationMs,
    accountId: k.accountId,
    tokenId,
    idempotencyKey: idempotencyKeyOf(request),
    externalId: typeof externalId === 'string' ? externalId : null,
    scenarios: k.scenarios,
    errorCode: k.code,
    requestHeaders: maskHeaders(request.headers, secrets),
    requestText: ports.keepBodies ? requestText(request.body, request.headers['content-length'], secrets) : null,
    responseHeaders: maskHeaders(reply.getHeaders(), secrets),
    responseText: ports.keepBodies ? answerText(answer, secrets) : null,
  }
}

const sizeNote = (bytes: number): string => JSON.stringify(`[a body of ${bytes} bytes, not kept]`)

/** The request body as JSON text, credentials masked, or a note when it is larger than BODY_LIMIT. */
function requestText (body: unknown, contentLength: string | undefined, secrets: readonly string[]): string | null {
  if (body === undefined || body === null) return null
  const declared = Number(contentLength)
  if (declared > BODY_LIMIT) return sizeNote(declared)
  // A body sent in chunks declares no length: weighed before it is masked and written out.
  if (jsonLength(body, BODY_LIMIT) > BODY_LIMIT) return JSON.stringify(`[a body of more than ${BODY_LIMIT} bytes, not kept]`)
  let text: string
  try {
    text = JSON.stringify(maskValue(body, secrets))
  } catch {
    // Nested deeper than masking and writing it out can go.
    return JSON.stringify('[a body nested too deep, not kept]')
  }
  return text.length > BODY_LIMIT ? sizeNote(Buffer.byteLength(text)) : text
}

function answerText (answer: unknown, secrets: readonly string[]): string | null {
  if (answer === null || answer === undefined) return null
  if (typeof answer !== 'string') {
    const bytes = Buffer.isBuffer(answer) ? answer.length : null
    return JSON.stringify(bytes === null ? '[a streamed body, not kept]' : `[a binary body of ${bytes} bytes, not kept]`)
  }
  if (answer.length > BODY_LIMIT) return sizeNote(Buffer.byteLength(answer))
  return maskJsonText(answer, secrets)
}

export default fp(capture, { name: 'request-journal' })
