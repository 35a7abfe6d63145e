import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../plugin.js'
import { errorResponses } from '../../schemas/common.js'
import type { ApiPixRoute } from './route.js'

const WRITE: ApiPixRoute = { scope: 'webhookrec.write', problems: { 400: 'WebhookRecOperacaoInvalida', 404: 'NaoEncontrado' } }
const READ: ApiPixRoute = { scope: 'webhookrec.read', problems: { 400: 'WebhookRecConsultaInvalida', 404: 'NaoEncontrado' } }

const WebhookRecBody = Type.Object({ webhookUrl: Type.Unknown({ description: 'an HTTPS URL; the sandbox calls {webhookUrl}/rec' }) }, { additionalProperties: true })
const WebhookRecView = Type.Object({ webhookUrl: Type.String(), criacao: Type.String() })

/** API Pix's webhook of recurrences (tag WebhookRec; docs/api-pix.md, Pix Automático). */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.put('/webhookrec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixPutWebhookRec',
      tags: ['API Pix'],
      summary: 'Configurar o webhook de recorrências',
      description: 'One URL per account, replacing the one it had; each status change of its recurrences is POSTed to {webhookUrl}/rec as { recs: [RecNotification] }, signed and retried as every webhook of the sandbox.',
      security: [{ oauth2: ['webhookrec.write'] }],
      body: WebhookRecBody,
      response: { 200: Type.Unsafe<undefined>({ type: 'null', description: 'configured' }), ...errorResponses('api-pix', [400, 403]) },
    },
  }, async (request, reply) => {
    sb.recWebhooks.configure(request.account!, request.body.webhookUrl)
    return reply.status(200).send()
  })

  app.get('/webhookrec', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetWebhookRec',
      tags: ['API Pix'],
      summary: 'Exibir o webhook de recorrências',
      security: [{ oauth2: ['webhookrec.read'] }],
      response: { 200: WebhookRecView, ...errorResponses('api-pix', [403, 404]) },
    },
  }, async (request) => sb.recWebhooks.get(request.account!))

  app.delete('/webhookrec', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixDeleteWebhookRec',
      tags: ['API Pix'],
      summary: 'Cancelar o webhook de recorrências',
      security: [{ oauth2: ['webhookrec.write'] }],
      response: { 204: Type.Null(), ...errorResponses('api-pix', [403, 404]) },
    },
  }, async (request, reply) => {
    sb.recWebhooks.remove(request.account!)
    return reply.status(204).send(null)
  })
}

export default routes
