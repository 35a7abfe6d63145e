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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of BACEN's API Pix (docs/api-pix.md): its errors are problem details, its scope is checked. */
    apiPix?: ApiPixRoute
  }
}
