import type { RoutesPlugin } from '../../route-plugin.js'
import { SandboxLocList } from '../../dialects/api-pix/schemas/loc.js'
import { AccountFilterQuery } from '../../schemas/sandbox.js'

/**
 * /__sandbox/locations: API Pix's payload locations (docs/api-pix.md) of every account, for the
 * dashboard and tools, without an OAuth token of each account.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.get('/locations', {
    schema: {
      operationId: 'sandboxListLocations',
      tags: ['Sandbox'],
      summary: 'API Pix\'s payload locations, of every account or one, newest first',
      description: 'Each with its account and, while it serves a charge, the charge\'s txid and transaction (chargeId).',
      querystring: AccountFilterQuery,
      response: { 200: SandboxLocList },
    },
  }, async (request) => ({ locations: sb.locations.all(request.query.accountId) }))
}

export default routes
