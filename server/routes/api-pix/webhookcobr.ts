import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../plugin.js'
import { errorResponses } from '../../schemas/common.js'
import { WebhookCobRBody, WebhookCobRView } from '../../schemas/api-pix/cobr.js'
import type { ApiPixRoute } from './route.js'

const WRITE: ApiPixRoute = { scope: 'webhookcobr.write', problems: { 400: 'WebhookCobROperacaoInvalida' }, entity: 'webhook' }
const READ: ApiPixRoute = { scope: 'webhookcobr.read', problems: { 400: 'WebhookCobRConsultaInvalida' } }
/** The account's one webhook of recurring charges: no key, its own callback. */
const SLOT = { callback: 'cobr' } as const

/**
 * Pix Automático's webhook of recurring charges (tag WebhookCobR; docs/api-pix.md, "Recurring
 * charges"): one URL per account; every change of status of one of its charges, or of one of their
 * attempts, is posted to `{webhookUrl}/cobr` as `{ "cobsr": [...] }`, through the delivery machinery.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.put('/webhookcobr', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixPutWebhookCobR',
      tags: ['API Pix'],
      summary: 'Configurar o Webhook de cobranças recorrentes',
      description: 'webhookUrl http(s), not the sandbox itself unless --self-webhooks enabled; a new URL replaces the account\'s. 200 with no body.',
      security: [{ oauth2: ['webhookcobr.write'] }],
      body: WebhookCobRBody,
      response: { 200: Type.Unsafe<undefined>({ type: 'null', description: 'configured' }), ...errorResponses('api-pix', [400, 403]) },
    },
  }, async (request, reply) => {
    sb.apiPixWebhooks.configure(request.account!, SLOT, request.body.webhookUrl)
    return reply.status(200).send()
  })

  app.get('/webhookcobr', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetWebhookCobR',
      tags: ['API Pix'],
      summary: 'Exibir informações acerca do Webhook de cobranças recorrentes',
      description: 'Its URL and when it was first configured; 404 NaoEncontrado without one.',
      security: [{ oauth2: ['webhookcobr.read'] }],
      response: { 200: WebhookCobRView, ...errorResponses('api-pix', [403, 404]) },
    },
  }, async (request) => {
    const { webhookUrl, criacao } = sb.apiPixWebhooks.view(sb.apiPixWebhooks.get(request.account!, SLOT))
    return { webhookUrl, criacao }
  })

  app.delete('/webhookcobr', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixDeleteWebhookCobR',
      tags: ['API Pix'],
      summary: 'Cancelar o Webhook de cobranças recorrentes',
      description: 'No more callbacks to it (a callback already sent keeps its retries); 404 NaoEncontrado without one.',
      security: [{ oauth2: ['webhookcobr.write'] }],
      response: { 204: Type.Null({ description: 'removed' }), ...errorResponses('api-pix', [403, 404]) },
    },
  }, async (request, reply) => {
    sb.apiPixWebhooks.remove(request.account!, SLOT)
    return reply.status(204).send(null)
  })
}

export default routes
