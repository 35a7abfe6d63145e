import type { RoutesPlugin } from '../../route-plugin.js'
import { SandboxLocList, SandboxLocListQuery } from '../../dialects/api-pix/schemas/loc.js'

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
      summary: 'API Pix\'s payload locations, of every account or one, the last made first, a page at a time',
      description: 'Each with its account and, while it serves a charge, the charge\'s txid and transaction (chargeId). ' +
        'At most limit (100 by default) per page; while older ones remain, nextCursor is the cursor of the next page (with the same accountId). A page costs the same whatever the number of locations.',
      querystring: SandboxLocListQuery,
      response: { 200: SandboxLocList },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    return sb.locations.page(accountId, limit ?? 100, cursor)
  })
}

export default routes
