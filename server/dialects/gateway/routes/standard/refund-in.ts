import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { RefundInBody, RefundInParams, RefundInResponse } from '../../../../schemas/payins.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { refundInView } from '../../views.js'
import { EXTENDED } from '../../errors.js'

/** POST /api/pix/refund-in/:id (docs/gateway.md §2.7, 4 row 8, 7.5): a partial or total refund of a received payment. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  app.post('/api/pix/refund-in/:id', {
    config: { auth: true },
    schema: {
      operationId: 'refundIn',
      tags: ['Standard'],
      summary: 'Refund a received payment (partial or total)',
      description: '`id` is the transactionId of the received payment (a cash-in, or a PIX received without charge); its endToEndId is accepted too. Answers PENDING with the amount reserved; settles after the settlement delay (refund_in webhook, V2 REFUND).',
      security: [{ bearer: [] }],
      params: RefundInParams,
      body: RefundInBody,
      response: { 201: RefundInResponse, ...errorResponses(EXTENDED, [400, 401, 404, 500]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'refund-in', account.id)
    const refund = sb.refunds.refundIn(account, request.params.id, request.body, scenarios)
    return reply.status(201).send(refundInView(refund))
  })
}

export default routes
