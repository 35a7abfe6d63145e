import type { RoutesPlugin } from '../../../../route-plugin.js'
import { errorResponses } from '../../../../schemas/common.js'
import { PublicWebhookAnswer, PublicWebhookBody, PublicWebhookList } from '../../../../schemas/webhooks.js'
import { EXTENDED } from '../../errors.js'

/**
 * POST and GET /api/webhooks (docs/gateway.md §2.11, 4 rows 12-13, 4.1 "Endpoints 12 and 13"). The real gateway has
 * them disabled today, so by default they answer exactly that; SANDBOX_PUBLIC_WEBHOOKS=enabled gives
 * their intended behaviour, for integrators who want to exercise it before the gateway turns it on.
 * The mode is fixed per process, so each mode registers its own schema (a disabled route takes any body).
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const enabled = sb.config.publicWebhooks === 'enabled'

  if (!enabled) {
    app.post('/api/webhooks', {
      config: { auth: true },
      schema: {
        operationId: 'registerWebhook',
        tags: ['Standard'],
        summary: 'Register a webhook (disabled, as on the real gateway: register in the dashboard)',
        description: 'Answers `{ success: false, message: "Rota desativada" }` and persists nothing, whatever the body. Set SANDBOX_PUBLIC_WEBHOOKS=enabled for the intended behaviour.',
        security: [{ bearer: [] }],
        body: PublicWebhookBody,
        response: { 200: PublicWebhookAnswer, ...errorResponses(EXTENDED, [401]) },
      },
      // The body is documented (it is what the gateway takes) but not enforced: the disabled route answers the same whatever it gets.
      attachValidation: true,
    }, async () => ({ success: false, message: 'Rota desativada' }))

    app.get('/api/webhooks', {
      config: { auth: true },
      schema: {
        operationId: 'listWebhooks',
        tags: ['Standard'],
        summary: 'List webhooks (disabled, as on the real gateway: always an empty list)',
        security: [{ bearer: [] }],
        response: { 200: PublicWebhookList, ...errorResponses(EXTENDED, [401]) },
      },
    }, async (request) => ({ accountId: request.account!.id, webhooks: [], total: 0 }))
    return
  }

  app.post('/api/webhooks', {
    config: { auth: true },
    schema: {
      operationId: 'registerWebhook',
      tags: ['Standard'],
      summary: 'Register a webhook URL for an event type (HTTPS only)',
      description: 'Up to 3 active URLs per event; the same URL for the same event updates its headers and version and leaves the others untouched; at most 5 custom headers; host, content-length, connection, transfer-encoding, content-type and user-agent are refused, and so are hop-by-hop names and X-Sandbox-*.',
      security: [{ bearer: [] }],
      body: PublicWebhookBody,
      response: { 200: PublicWebhookAnswer, ...errorResponses(EXTENDED, [400, 401, 404]) },
    },
  }, async (request) => {
    const { url, eventType, headers } = request.body
    const account = request.account!
    const { created } = await sb.webhooks.registrations.register({ accountId: account.id, incarnation: account.incarnation, eventType, url, headers }, { httpsOnly: true })
    return { success: true, message: created ? 'Webhook cadastrado com sucesso' : 'Webhook atualizado com sucesso' }
  })

  app.get('/api/webhooks', {
    config: { auth: true },
    schema: {
      operationId: 'listWebhooks',
      tags: ['Standard'],
      summary: 'Every webhook of the account, active and inactive',
      security: [{ bearer: [] }],
      response: { 200: PublicWebhookList, ...errorResponses(EXTENDED, [401, 404]) },
    },
  }, async (request) => {
    const webhooks = sb.webhooks.registrations.list(request.account!.id)
      .map(w => ({ id: w.id, type: w.eventType, url: w.url, headers: w.headers, isActive: w.isActive, createdAt: w.createdAt }))
    return { accountId: request.account!.id, webhooks, total: webhooks.length }
  })
}

export default routes
