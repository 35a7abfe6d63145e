import type { RouteOptions } from 'fastify'
import { errorResponses } from './common.js'
import type { ErrorFamily } from '../errors/families.js'
import type { Endpoint } from '../../scenarios/types.js'
import { FAULT_STATUSES } from '../../scenarios/transport.js'

/**
 * The error statuses any route can answer whatever its handler does, added to its schema so the
 * OpenAPI document declares every status the server really sends (test/routes/openapi.test.ts and
 * the check in test/helpers/app.ts compare what tests see with what the document declares):
 * - a method that takes a body: 400 for malformed JSON, 413 above the body limit, 415 for another
 *   content type (Fastify parses a body on every method but GET and HEAD, with or without a schema);
 * - a schema on the body, query, path or headers: 400 with one message per invalid field;
 * - a path parameter: 400 for a malformed percent-encoding, 414 above the router's length limit;
 * - a route behind a bearer token: 401;
 * - an operation with a scenario endpoint: 429 and 503 from the transport faults;
 * - what the route's family says any of its routes can answer (ErrorFamily.declare: the control
 *   plane's admin token, a dialect's unknown X-Sandbox-Scenario, API Pix's ServicoIndisponivel and
 *   AcessoNegado, the gateway's token of narrower scopes).
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

/** The onRoute hook that declares them, over the app's families and the scenario endpoint of each operation. */
export function declareErrorResponses (familyOfRoute: (route: RouteOptions) => ErrorFamily, endpointOf: (route: RouteOptions) => Endpoint | null) {
  return (route: RouteOptions): void => {
    const schema = route.schema as RouteSchema | undefined
    if (!schema || schema.hide) return
    const codes = new Set<number>()
    const methods = [route.method].flat()
    if (methods.some(m => m !== 'GET' && m !== 'HEAD')) codes.add(400).add(413).add(415)
    if (schema.body || schema.querystring || schema.params || schema.headers) codes.add(400)
    if (route.url.includes(':')) codes.add(400).add(414)
    if ((route.config as { auth?: boolean } | undefined)?.auth) codes.add(401)
    if (endpointOf(route)) for (const c of FAULT_STATUSES) codes.add(c)
    const family = familyOfRoute(route)
    for (const c of family.declare?.(route, schema) ?? []) codes.add(c)
    const declared = schema.response ?? {}
    const missing = [...codes].filter(c => declared[c] === undefined && declared[String(c)] === undefined)
    schema.response = { ...declared, ...errorResponses(family.shapeOf(route.url), missing) }
  }
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
