import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { CashInBody, CashInResponse } from '../../../../schemas/payins.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { cashInView } from '../../views.js'
import { EXTENDED } from '../../errors.js'

/** POST /api/pix/cash-in (docs/gateway.md §2.6, 4 row 7, 7.4): a dynamic charge with its BR Code and, on request, its QR image. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  app.post('/api/pix/cash-in', {
    config: { auth: true },
    schema: {
      operationId: 'cashIn',
      tags: ['Standard'],
      summary: 'Create a charge (cash-in) with a dynamic BR Code',
      description: 'Answers PENDING; the charge becomes CONFIRMED when paid (cash_in webhook, V2 RECEIVE) or ERROR with errorCode EXPIRED when its expiration passes unpaid. Pay it in the sandbox with POST /__sandbox/pix/pay or the AUTO_PAY scenario.',
      security: [{ bearer: [] }],
      body: CashInBody,
      response: { 201: CashInResponse, ...errorResponses(EXTENDED, [400, 401, 500]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cash-in', account.id)
    const { charge, qrCodeImage } = await sb.charges.createCashIn(account, request.body, scenarios)
    return reply.status(201).send(cashInView(charge, qrCodeImage))
  })
}

export default routes
