import type { FastifyRequest } from 'fastify'
import type { ErrorAnswer, FamilySettings } from '../../server/errors/families.js'
import { answerOf as answerIn, errorHandling } from '../../server/errors/handler.js'
import type { Code } from '../../server/errors/refusal.js'
import { CONTROL_PLANE } from '../../server/routes/sandbox/errors.js'
import { dialects } from '../../server/dialects/index.js'

/**
 * The app's error families as the unit tests read them: the control plane's and each dialect's of the
 * registry, by name (`standard`, `central-bank`, `sandbox`, `api-pix`), and the shape each path answers
 * in (`extended`, `simple`, `sandbox`, `problem`, `oauth`).
 */
export const FAMILY_LIST = [CONTROL_PLANE, ...dialects.flatMap(d => d.families)]
export const FAMILIES: readonly string[] = FAMILY_LIST.map(f => f.name)

const handling = (settings: FamilySettings = {}) => errorHandling(FAMILY_LIST, settings)

/** The family of a path (API Pix's base path when given). */
export const familyOf = (path: string, apiPixBasePath?: string): string => handling({ apiPixBasePath }).familyOf(path).name

/** The shape of a path's error bodies. */
export const errorShapeOf = (url: string, apiPixBasePath?: string): string => {
  const path = url.split('?')[0]
  return handling({ apiPixBasePath }).familyOf(path).shapeOf(path).name
}

/** The status of an outcome in a family, undefined where the family cannot meet it. */
export const statusOf = (code: Code, family: string): number | undefined => handling().statusOf(code, family)

/** What a family answers for anything thrown. */
export const answerOf = (err: unknown, family: string): ErrorAnswer => answerIn(err, handling().family(family))

/** The body of an answer, in the shape of the request's family (its route's config, else its path). */
export const errorBody = (answer: ErrorAnswer, request: FastifyRequest): Record<string, unknown> => {
  const apiPixBasePath = (request.server as { sandbox?: { config?: { apiPixBasePath?: string } } } | undefined)?.sandbox?.config?.apiPixBasePath
  return handling({ apiPixBasePath }).shapeOfRequest(request).body(answer, request)
}
