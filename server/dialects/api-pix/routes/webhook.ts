import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { ApiPixWebhook, ApiPixWebhookBody, ApiPixWebhookList, ApiPixWebhookListQuery, ApiPixWebhookParams, MtlsCheckHeaders, skipsMtlsChecking } from '../schemas/webhook.js'
import type { ApiPixRoute } from './route.js'
import { PROBLEM } from '../errors.js'
import { apiPixLists } from '../lists.js'

const WRITE: ApiPixRoute = { scope: 'webhook.write', problems: { 400: 'WebhookOperacaoInvalida', 404: 'WebhookNaoEncontrado' }, entity: 'webhook' }
const READ: ApiPixRoute = { scope: 'webhook.read', problems: { 400: 'WebhookConsultaInvalida', 404: 'WebhookNaoEncontrado' } }

/**
 * API Pix's webhooks per key (tag Webhook; docs/api-pix.md, webhook): the PIX with a txid received on
 * the key, and their devoluções once ended, are posted to `{webhookUrl}/pix`. Pix Automático's
 * `/webhookrec` and `/webhookcobr` are the same service's webhooks of the whole account.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const lists = apiPixLists(sb)

  app.put('/webhook/:chave', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixPutWebhook',
      tags: ['API Pix'],
      summary: 'Configurar o Webhook Pix',
      description: 'The key must be one the account holds (its document, or a key of the directory held with its document at its institution); webhookUrl http(s), not the sandbox itself unless --self-webhooks enabled; an https receiver\'s mutual TLS is checked as Efí does, unless the account\'s webhookMtlsCheck is false or --webhook-mtls-check disabled (docs/webhooks.md). A new URL replaces the key\'s. 200 with no body.',
      params: ApiPixWebhookParams,
      headers: MtlsCheckHeaders,
      body: ApiPixWebhookBody,
      // API Pix's 200 has no body: answered empty, declared without content.
      response: { 200: Type.Unsafe<undefined>({ type: 'null', description: 'configured' }), ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request, reply) => {
    const account = request.account!
    const chave = sb.apiPixWebhooks.heldKey(account, request.params.chave)
    await sb.apiPixWebhooks.configure(account, { callback: 'pix', chave }, request.body.webhookUrl, { skipMtlsChecking: skipsMtlsChecking(request.headers) })
    return reply.status(200).send()
  })

  app.get('/webhook/:chave', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixGetWebhook',
      tags: ['API Pix'],
      summary: 'Exibir informações acerca do Webhook Pix',
      description: 'The key\'s webhook: its URL, the key and when it was first configured; 404 WebhookNaoEncontrado without one.',
      params: ApiPixWebhookParams,
      response: { 200: ApiPixWebhook, ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request) => sb.apiPixWebhooks.view(sb.apiPixWebhooks.get(request.account!, { callback: 'pix', chave: sb.apiPixWebhooks.keyOf(request.params.chave) })))

  app.delete('/webhook/:chave', {
    config: { auth: true, apiPix: WRITE },
    schema: {
      operationId: 'apiPixDeleteWebhook',
      tags: ['API Pix'],
      summary: 'Cancelar o webhook Pix',
      description: 'No more callbacks to it (a callback already sent keeps its retries); 404 WebhookNaoEncontrado without one.',
      params: ApiPixWebhookParams,
      response: { 204: Type.Null({ description: 'removed' }), ...errorResponses(PROBLEM, [403, 404]) },
    },
  }, async (request, reply) => {
    sb.apiPixWebhooks.remove(request.account!, { callback: 'pix', chave: sb.apiPixWebhooks.keyOf(request.params.chave) })
    return reply.status(204).send(null)
  })

  app.get('/webhook', {
    config: { auth: true, apiPix: READ },
    schema: {
      operationId: 'apiPixListWebhooks',
      tags: ['API Pix'],
      summary: 'Consultar webhooks cadastrados',
      description: 'The account\'s webhooks per key, configured between inicio and fim (both optional); paging with paginacao.paginaAtual and paginacao.itensPorPagina. Oldest first.',
      querystring: ApiPixWebhookListQuery,
      response: { 200: ApiPixWebhookList, ...errorResponses(PROBLEM, [400, 403]) },
    },
  }, async (request) => {
    const { parametros, items } = lists.webhooks(request.account!, 'pix', request.query)
    return { parametros, webhooks: items.map(w => sb.apiPixWebhooks.view(w)) }
  })
}

export default routes
