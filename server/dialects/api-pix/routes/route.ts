import type { RouteOptions } from 'fastify'
import type { ProblemRoute } from '../../../errors/problems.js'
import type { ApiPixScope } from '../../../domain/scopes.js'

/**
 * What a route of API Pix says in its config (`config.apiPix`): the scope a token needs for it (403
 * AcessoNegado without it), and its problem types. Its presence makes a route answer errors in API
 * Pix's shape, wherever it is mounted (under the base path, the token, the payload locations).
 */
export interface ApiPixRoute extends ProblemRoute {
  readonly scope?: ApiPixScope
}

/**
 * The onRoute hook that names a route's scope once: the OpenAPI security of a route of API Pix is
 * the scope its config names (`config.apiPix.scope`, which the token is checked against), so the
 * document and the check cannot disagree.
 */
export function securityOfScope (route: RouteOptions): void {
  const scope = (route.config as { apiPix?: ApiPixRoute } | undefined)?.apiPix?.scope
  const schema = route.schema as { security?: unknown } | undefined
  // The HEAD route Fastify adds beside a GET shares the GET's schema, done already.
  if (scope === undefined || schema === undefined || route.method === 'HEAD') return
  if (schema.security !== undefined) throw new Error(`${[route.method].flat().join(',')} ${route.url}: the route's scope is named in config.apiPix.scope alone`)
  schema.security = [{ oauth2: [scope] }]
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of BACEN's API Pix (docs/api-pix.md): its errors are problem details, its scope is checked. */
    apiPix?: ApiPixRoute
  }
}
