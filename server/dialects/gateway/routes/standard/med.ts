import type { RoutesPlugin } from '../../../../route-plugin.js'
import { Refusal, tooManyRequests } from '../../../../errors/refusal.js'
import { errorResponses } from '../../../../schemas/common.js'
import { MedListQuery, MedListResponse } from '../../../../schemas/payins.js'
import { medView } from '../../payloads/pay-in.js'
import { hasScenario } from '../../../../../scenarios/resolver.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { EXTENDED } from '../../errors.js'

/** GET /api/med (docs/gateway.md §2.10, 4 row 11, 7.10): the account's MED disputes, filtered and paged, rate limited. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  app.get('/api/med', {
    config: { auth: true },
    schema: {
      operationId: 'listMed',
      tags: ['Standard'],
      summary: 'List MED disputes',
      description: 'Newest first. startDate/endDate filter on createdAt (a date alone covers that whole day in America/Sao_Paulo). Rate limited per account (SANDBOX_MED_RATE_LIMIT requests per minute of sandbox time): 429 with Retry-After.',
      security: [{ bearer: [] }],
      querystring: MedListQuery,
      response: { 200: MedListResponse, ...errorResponses(EXTENDED, [400, 401, 429, 500]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'med-list', account.id)
    // RATE_LIMITED, as on every gateway operation, is answered before this runs (server/faults.ts).
    if (hasScenario(scenarios, 'INTERNAL_ERROR')) throw new Refusal('INTERNAL_ERROR', 'Erro interno do servidor')
    const slot = sb.med.takeListSlot(account.id)
    if (!slot.ok) {
      const seconds = Math.max(1, Math.ceil(slot.retryAfterMs / 1000))
      reply.header('retry-after', String(seconds))
      throw tooManyRequests(seconds)
    }
    const { data, metadata } = sb.med.list(account.id, request.query)
    return { data: data.map(medView), metadata }
  })
}

export default routes
