import type { RoutesPlugin } from '../../route-plugin.js'
import { errorResponses } from '../../schemas/common.js'
import { SANDBOX_SHAPE } from './errors.js'
import { paymentViews } from '../../dialects/mercado-pago/context.js'
import { SandboxMercadoPagoPaymentList, SandboxMercadoPagoPaymentsQuery } from '../../dialects/mercado-pago/schemas.js'

/**
 * /__sandbox/mercado-pago/payments: an account's Mercado Pago payments (docs/mercado-pago.md), each
 * with its refunds, for the dashboard and tools, without the account's access token; reading them here
 * is no request of the integration's (the report grades only those).
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  app.get('/mercado-pago/payments', {
    schema: {
      operationId: 'sandboxListMercadoPagoPayments',
      tags: ['Sandbox'],
      summary: 'An account\'s Mercado Pago payments, the last made first, a page at a time',
      description: 'Each as GET /v1/payments/{id} shows it (its refunds included), with its account and transaction (the deliveries of its notifications: GET /__sandbox/webhooks/deliveries?transactionId=). ' +
        'At most limit (50 by default) per page; while older ones remain, nextCursor is the cursor of the next page. A page costs the same whatever the number of the account\'s records.',
      querystring: SandboxMercadoPagoPaymentsQuery,
      response: { 200: SandboxMercadoPagoPaymentList, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    const account = sb.accounts.require(accountId)
    const { charges, nextCursor } = sb.charges.codeChargePage(accountId, limit ?? 50, cursor)
    const views = await paymentViews(sb, request, account, charges, tx => sb.refunds.refundsOf(tx))
    return {
      payments: views.map((view, i) => ({ ...view, accountId, transactionId: charges[i].id })),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    }
  })
}

export default routes
