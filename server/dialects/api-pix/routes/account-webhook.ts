import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import { AccountWebhookBody, AccountWebhookView, MtlsCheckHeaders, skipsMtlsChecking } from '../schemas/webhook.js'
import type { WebhookSlot } from '../../../services/api-pix-webhooks.js'
import type { ApiPixRoute } from './route.js'
import { PROBLEM } from '../errors.js'

/** What tells one of Pix Automático's webhooks of the whole account from the other. */
export interface AccountWebhook {
  /** Its callback, which names its path (`/webhook<callback>`), its scopes and where it is posted (`{webhookUrl}/<callback>`). */
  callback: Extract<WebhookSlot['callback'], 'rec' | 'cobr'>
  /** Its tag's name, of its operationIds and problem types (`WebhookRecOperacaoInvalida`). */
  tag: 'Rec' | 'CobR'
  /** What it is the webhook of, in the summaries: `recorrências`. */
  of: string
  /** What is posted to it, in the descriptions: `each status change of the account's recurrences`. */
  told: string
}

/**
 * Pix Automático's webhooks of the whole account, `/webhookrec` and `/webhookcobr` (tags WebhookRec,
 * WebhookCobR; docs/api-pix.md): one URL per account under the URL rules of every webhook of API Pix,
 * kept, read and removed alike; what they are told is posted to `{webhookUrl}/<callback>` through the
 * delivery machinery.
 */
export function accountWebhookRoutes ({ callback, tag, of, told }: AccountWebhook): RoutesPlugin {
  const WRITE: ApiPixRoute = { scope: `webhook${callback}.write`, problems: { 400: `Webhook${tag}OperacaoInvalida` }, entity: 'webhook' }
  const READ: ApiPixRoute = { scope: `webhook${callback}.read`, problems: { 400: `Webhook${tag}ConsultaInvalida` } }
  const slot = { callback }
  const path = `/webhook${callback}`
  return async (app) => {
    const sb = app.sandbox

    app.put(path, {
      config: { auth: true, apiPix: WRITE },
      schema: {
        operationId: `apiPixPutWebhook${tag}`,
        tags: ['API Pix'],
        summary: `Configurar o Webhook de ${of}`,
        description: `webhookUrl http(s), not the sandbox itself unless --self-webhooks enabled; an https receiver's mutual TLS is checked as Efí does, unless the account's webhookMtlsCheck is false or --webhook-mtls-check disabled (docs/webhooks.md); a new URL replaces the account's. ${told[0].toUpperCase()}${told.slice(1)} is posted to {webhookUrl}/${callback}, signed and retried as every webhook of the sandbox. 200 with no body.`,
        headers: MtlsCheckHeaders,
        body: AccountWebhookBody(callback, told),
        // API Pix's 200 has no body: answered empty, declared without content.
        response: { 200: Type.Unsafe<undefined>({ type: 'null', description: 'configured' }), ...errorResponses(PROBLEM, [400, 403]) },
      },
    }, async (request, reply) => {
      await sb.apiPixWebhooks.configure(request.account!, slot, request.body.webhookUrl, { skipMtlsChecking: skipsMtlsChecking(request.headers) })
      return reply.status(200).send()
    })

    app.get(path, {
      config: { auth: true, apiPix: READ },
      schema: {
        operationId: `apiPixGetWebhook${tag}`,
        tags: ['API Pix'],
        summary: `Exibir informações acerca do Webhook de ${of}`,
        description: 'Its URL and when it was first configured; 404 NaoEncontrado without one.',
        response: { 200: AccountWebhookView, ...errorResponses(PROBLEM, [403, 404]) },
      },
    }, async (request) => {
      const { webhookUrl, criacao } = sb.apiPixWebhooks.view(sb.apiPixWebhooks.get(request.account!, slot))
      return { webhookUrl, criacao }
    })

    app.delete(path, {
      config: { auth: true, apiPix: WRITE },
      schema: {
        operationId: `apiPixDeleteWebhook${tag}`,
        tags: ['API Pix'],
        summary: `Cancelar o Webhook de ${of}`,
        description: 'No more callbacks to it (a callback already sent keeps its retries); 404 NaoEncontrado without one.',
        response: { 204: Type.Null({ description: 'removed' }), ...errorResponses(PROBLEM, [403, 404]) },
      },
    }, async (request, reply) => {
      sb.apiPixWebhooks.remove(request.account!, slot)
      return reply.status(204).send(null)
    })
  }
}
