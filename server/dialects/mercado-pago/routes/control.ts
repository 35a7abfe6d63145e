import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { AccountView, NumericIdParams } from '../../../schemas/sandbox.js'
import { SANDBOX_SHAPE } from '../../../routes/sandbox/errors.js'
import { accountView } from '../../../routes/sandbox/views.js'
import { paymentViews } from '../context.js'
import { SandboxMercadoPagoPaymentList, SandboxMercadoPagoPaymentsQuery } from '../schemas.js'

/**
 * Mercado Pago's part of the control plane (docs/mercado-pago.md), under /__sandbox with its admin token:
 * the account's notification URL ("Your integrations"), and its payments, each with its refunds, for the
 * dashboard and tools without the account's access token (reading them here is no request of the
 * integration's: the report grades only those).
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.put('/accounts/:id/mercado-pago/webhook', {
    schema: {
      operationId: 'sandboxSetMercadoPagoWebhook',
      tags: ['Sandbox'],
      summary: 'Set (or, with url null, remove) the account\'s Mercado Pago notification URL ("Your integrations")',
      description: 'Payments without a notification_url notify it (docs/mercado-pago.md, Notifications).',
      params: NumericIdParams,
      body: Type.Object({ url: Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()]) }),
      response: { 200: AccountView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => {
    const account = sb.accounts.require(request.params.id)
    const url = request.body.url === null ? null : (await sb.webhooks.checkReceiver(request.body.url)).href
    return accountView(sb.accounts.setMercadoPagoWebhookUrl(account, url))
  })
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
