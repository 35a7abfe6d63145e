import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { CashOutBody, PayoutCreated, QrCashOutBody } from '../../../../schemas/payouts.js'
import type { TransactionOf } from '../../../../store/state.js'
import { appliedScenarios } from '../../../../applied-scenarios.js'
import { EXTENDED } from '../../errors.js'

/** The four fields both pay-out endpoints answer with (docs/gateway.md §2.4, 2.5). */
function created (tx: TransactionOf<'CASH_OUT' | 'CASH_OUT_QRCODE'>) {
  return { transactionId: tx.id, externalId: tx.externalId ?? '', status: tx.status, generateTime: tx.createdAt }
}

/** POST /api/pix/cash-out and /api/pix/cash-out-qrcode (docs/gateway.md §2.4, 2.5, 7.2, 7.3). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.post('/api/pix/cash-out', {
    config: { auth: true },
    schema: {
      operationId: 'cashOut',
      tags: ['Standard'],
      summary: 'Pay a PIX key (cash-out)',
      description: 'Reserves value + fee and answers PENDING; the CashOut webhook brings CONFIRMED or ERROR. ' +
        'Scenarios (X-Sandbox-Scenario): see GET /__sandbox/scenarios.',
      security: [{ bearer: [] }],
      body: CashOutBody,
      response: { 201: PayoutCreated, ...errorResponses(EXTENDED, [400, 401]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cash-out', account.id)
    const tx = sb.payouts.createCashOut(account, request.body, scenarios)
    return reply.status(201).send(created(tx))
  })

  app.post('/api/pix/cash-out-qrcode', {
    config: { auth: true },
    schema: {
      operationId: 'cashOutQrCode',
      tags: ['Standard'],
      summary: 'Pay a QR Code (BR Code copy-and-paste string)',
      description: 'A code issued by this sandbox (any account\'s cash-in or cob) pays that charge for real. ' +
        '422 with QRCODE_ALREADY_PAID or QRCODE_NOT_AVAILABLE is final; a 422 without them or a 500 must be confirmed by querying the transaction.',
      security: [{ bearer: [] }],
      body: QrCashOutBody,
      response: { 201: PayoutCreated, ...errorResponses(EXTENDED, [400, 401, 409, 422, 500]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const scenarios = appliedScenarios(request, reply, 'cash-out-qrcode', account.id)
    const { tx, error } = sb.payouts.createQrCashOut(account, request.body, scenarios)
    if (error) throw error
    return reply.status(201).send(created(tx))
  })
}

export default routes
