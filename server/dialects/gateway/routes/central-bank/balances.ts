import type { RoutesPlugin } from '../../../../route-plugin.js'
import { centsToNumber } from '../../../../domain/money.js'
import { errorResponses } from '../../../../schemas/common.js'
import { CentralBankBalances } from '../../schemas/balance.js'
import { SIMPLE } from '../../errors.js'

/** GET /accounts/balances (docs/gateway.md §2.2, 4 row 2). */
const balancesRoutes: RoutesPlugin = async (app) => {
  app.get('/accounts/balances', {
    config: { auth: true },
    schema: {
      operationId: 'getBalances',
      tags: ['Central bank'],
      summary: 'Balance (central-bank-compatible format)',
      security: [{ bearer: [] }],
      response: { 200: CentralBankBalances, ...errorResponses(SIMPLE, [401]) },
    },
  }, async (request) => {
    const { availableCents, blockedCents } = request.account!.balance
    return {
      data: [{
        eventDate: new Date(app.sandbox.clock.now()).toISOString(),
        balanceAmount: { available: centsToNumber(availableCents), blocked: centsToNumber(blockedCents), overdraft: 0 },
      }],
    }
  })
}

export default balancesRoutes
