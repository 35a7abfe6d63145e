import type { ProblemRoute } from '../../errors/problems.js'
import type { ApiPixScope } from '../../domain/scopes.js'

/**
 * What a route of API Pix says in its config (`config.apiPix`): the scope a token needs for it (403
 * AcessoNegado without it), and its problem types. Its presence makes a route answer errors in API
 * Pix's shape, wherever it is mounted (under the base path, the token, the payload locations).
 */
export interface ApiPixRoute extends ProblemRoute {
  readonly scope?: ApiPixScope
}
