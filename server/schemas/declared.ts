import type { RouteOptions } from 'fastify'
import { errorResponses } from './common.js'
import { errorShapeOf, familyOf, type ErrorShape, type Family } from '../errors/families.js'
import { gatewayEndpointOf } from '../../scenarios/operations.js'
import { FAULT_STATUSES } from '../../scenarios/transport.js'

/**
 * The error statuses any route can answer whatever its handler does, added to its schema so the
 * OpenAPI document declares every status the server really sends (test/routes/openapi.test.ts and
 * the check in test/helpers/app.ts compare what tests see with what the document declares):
 * - a method that takes a body: 400 for malformed JSON, 413 above the body limit, 415 for another
 *   content type (Fastify parses a body on every method but GET and HEAD, with or without a schema);
 * - a schema on the body, query, path or headers: 400 with one message per invalid field;
 * - a path parameter: 400 for a malformed percent-encoding, 414 above the router's length limit;
 * - a route behind a bearer token: 401, and on the gateway 403 (a token of some scopes of API Pix);
 * - the control plane, but health: 401 when SANDBOX_ADMIN_TOKEN is set;
 * - an operation of the gateway's families: 400 for an unknown X-Sandbox-Scenario, 429 and 503 from
 *   the transport faults;
 * - an operation of API Pix: 503 (ServicoIndisponivel, as BACEN declares on every operation: a data
 *   file that cannot be written), and 403 (AcessoNegado) where the route needs a scope.
 * Each in the shape of the route's family.
 */
interface RouteSchema {
  hide?: boolean
  body?: unknown
  querystring?: unknown
  params?: unknown
  headers?: unknown
  response?: Record<string | number, unknown>
  security?: Array<Record<string, string[]>>
}

export function declareErrorResponses (route: RouteOptions): void {
  const schema = route.schema as RouteSchema | undefined
  if (!schema || schema.hide) return
  const codes = new Set<number>()
  const methods = [route.method].flat()
  if (methods.some(m => m !== 'GET' && m !== 'HEAD')) codes.add(400).add(413).add(415)
  if (schema.body || schema.querystring || schema.params || schema.headers) codes.add(400)
  if (route.url.includes(':')) codes.add(400).add(414)
  const config = route.config as { auth?: boolean, apiPix?: { scope?: string } } | undefined
  if (config?.auth) codes.add(401)
  // A token of /oauth/token issued for scopes that do not cover a route of the gateway (docs/api-pix.md, Scopes).
  if (config?.auth && config.apiPix === undefined) codes.add(403)
  if (gatewayEndpointOf(route)) for (const c of FAULT_STATUSES) codes.add(c)
  const family: Family = config?.apiPix !== undefined ? 'api-pix' : familyOf(route.url)
  if (family !== 'sandbox') codes.add(400)
  if (family === 'api-pix') codes.add(503)
  if (config?.apiPix?.scope !== undefined) codes.add(403)
  if (family === 'sandbox' && route.url !== '/__sandbox/health') {
    codes.add(401)
    // Optional: only a sandbox started with an admin token asks for it.
    schema.security ??= [{ sandboxAdmin: [] }, {}]
  }
  const declared = schema.response ?? {}
  const missing = [...codes].filter(c => declared[c] === undefined && declared[String(c)] === undefined)
  const shape: ErrorShape = family === 'api-pix' && errorShapeOf(route.url) !== 'oauth' ? 'api-pix' : errorShapeOf(route.url)
  schema.response = { ...declared, ...errorResponses(shape, missing) }
}

/**
 * JSON Schema draft 7 (what Ajv validates) writes `exclusiveMinimum: 0`; OpenAPI 3.0 wants
 * `minimum: 0, exclusiveMinimum: true`. Rewrites the generated document in place, everywhere.
 */
export function toOpenApi30<T> (generated: T): T {
  // A copy: the generated document may share schema objects with the validators of the routes.
  const doc = structuredClone(generated)
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(visit); return }
    if (typeof node !== 'object' || node === null) return
    const o = node as Record<string, unknown>
    for (const [bound, flag] of [['minimum', 'exclusiveMinimum'], ['maximum', 'exclusiveMaximum']] as const) {
      if (typeof o[flag] === 'number') {
        o[bound] = o[flag]
        o[flag] = true
      }
    }
    for (const value of Object.values(o)) visit(value)
  }
  visit(doc)
  return doc
}
