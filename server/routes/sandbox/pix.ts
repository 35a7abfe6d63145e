import type { RoutesPlugin } from '../../route-plugin.js'
import { errorResponses } from '../../schemas/common.js'
import { PixIncomingBody, PixPayBody, ReceivedPixView } from '../../schemas/payins.js'
import { appliedScenarios } from '../../applied-scenarios.js'
import { receivedView } from './views.js'
import { SANDBOX_SHAPE } from './errors.js'

/** /__sandbox/pix/pay and /__sandbox/pix/incoming: money arriving as a payer's bank would send it. */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.post('/pix/pay', {
    schema: {
      operationId: 'sandboxPay',
      tags: ['Sandbox'],
      summary: 'Pay a charge of this sandbox by its copy-and-paste code, as a payer\'s bank app would',
      description: 'Cash-in becomes CONFIRMED, cob CONCLUIDA, the account is credited, cash_in (V2 RECEIVE) fires and splits run. The amount is what the charge asks when paid (a dynamic code carries none: a code shown before a PATCH pays the new value), or a static code\'s. 400 for an unparsable code or an amount that differs from the charge\'s (or the static code\'s); 404 when no charge of this sandbox matches; 422 QRCODE_ALREADY_PAID or QRCODE_NOT_AVAILABLE (expired or removed). Delivery faults apply from X-Sandbox-Scenario (endpoint pix-pay).',
      body: PixPayBody,
      response: { 201: ReceivedPixView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 422]) },
    },
  }, async (request, reply) => {
    const paid = sb.chargePayments.payByCode(request.body, accountId => appliedScenarios(request, reply, 'pix-pay', accountId))
    return reply.status(201).send(receivedView(paid))
  })

  app.post('/pix/incoming', {
    schema: {
      operationId: 'sandboxReceivePix',
      tags: ['Sandbox'],
      summary: 'Credit an unsolicited PIX (no charge) to an account',
      description: 'Creates a received payment (kind PIX_IN, CONFIRMED), credits the available balance and fires cash_in (V2 RECEIVE with txId null). Refundable like any received payment.',
      body: PixIncomingBody,
      response: { 201: ReceivedPixView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 422]) },
    },
  }, async (request, reply) => {
    const account = sb.accounts.require(request.body.accountId)
    const scenarios = appliedScenarios(request, reply, 'pix-incoming', account.id)
    const tx = sb.receivedPix.receiveUnsolicited(account, request.body.amount, request.body.payer, scenarios)
    return reply.status(201).send(receivedView(tx))
  })
}

export default routes
