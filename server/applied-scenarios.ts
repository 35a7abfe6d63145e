import type { FastifyReply, FastifyRequest } from 'fastify'
import { formatScenarios } from '../scenarios/resolver.js'
import type { AppliedScenario, Endpoint, ScenarioCaller } from '../scenarios/types.js'

/**
 * The scenarios a request applies, at the edge: the scenario service resolves its X-Sandbox-Scenario
 * header (or what is armed for its account) once per request, and the names applied are echoed in
 * X-Sandbox-Scenario-Applied. Once: the transport faults (faults.ts) resolve a gateway request before its
 * route runs, and the route then gets the same list (an armed scenario is used up once).
 * `accountId` null: the account is not known (a token request for an unknown client), only the header counts.
 * `caller`: the dialect whose operation it is (faults.ts says, for every operation of a dialect), so a
 * scenario of one dialect alone bends none of another's.
 */
export function appliedScenarios (request: FastifyRequest, reply: FastifyReply, endpoint: Endpoint, accountId: number | null, caller?: ScenarioCaller): AppliedScenario[] {
  if (request.scenarios) return request.scenarios
  const header = request.headers['x-sandbox-scenario']
  const applied = request.server.sandbox.scenarios.resolve(typeof header === 'string' ? header : undefined, endpoint, accountId, caller)
  if (applied.length > 0) void reply.header('x-sandbox-scenario-applied', formatScenarios(applied))
  request.scenarios = applied
  return applied
}
