import type { RoutesPlugin } from '../../../../route-plugin.js'
import { centsToNumber } from '../../../../domain/money.js'
import { errorResponses } from '../../../../schemas/common.js'
import { StandardBalance } from '../../schemas/balance.js'
import { EXTENDED } from '../../errors.js'

/** GET /balance and its alias /api/balance (docs/gateway.md §2.2, 4 row 3): the standard mapping of the balance. */
const balanceRoutes: RoutesPlugin = async (app) => {
  for (const url of ['/balance', '/api/balance']) {
    app.get(url, {
      config: { auth: true },
      schema: {
        operationId: url === '/balance' ? 'getBalance' : 'getApiBalance',
        tags: ['Standard'],
        summary: url === '/balance' ? 'Balance (standard format)' : 'Balance (standard format), alias under /api',
        security: [{ bearer: [] }],
        response: { 200: StandardBalance, ...errorResponses(EXTENDED, [401]) },
      },
    }, async (request) => {
      const { availableCents, blockedCents } = request.account!.balance
      return {
        grossBalance: centsToNumber(availableCents + blockedCents),
        blockedBalance: centsToNumber(blockedCents),
        netBalance: centsToNumber(availableCents),
        consultedAt: new Date(app.sandbox.clock.now()).toISOString(),
      }
    })
  }
}

export default balanceRoutes
