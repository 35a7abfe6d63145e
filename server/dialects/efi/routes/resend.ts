import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { ResendBody } from '../schemas.js'
import { efiConfig, type EfiRoute } from '../errors.js'
import type { EfiResend } from '../resend.js'

const RESEND: EfiRoute = {
  scope: 'webhook.write',
  problems: { 400: { type: 'WebhookOperacaoInvalida', title: 'Operação Inválida', detail: 'A requisição que busca reenviar webhooks não respeita o schema ou está semanticamente errada.', propriedade: 'body.e2eids' } },
}

/** POST /v2/gn/webhook/reenviar (docs/efi.md, Webhook resend). */
export const resendRoutes = (resend: EfiResend): RoutesPlugin => async (app) => {
  app.post('/gn/webhook/reenviar', {
    config: efiConfig(RESEND),
    schema: {
      operationId: 'efiResendWebhook',
      tags: ['Efí'],
      summary: 'Reenviar webhooks Pix',
      description: '202, no body: the last callback of each e2eid, of the kind asked (PIX_RECEBIDO: API Pix\'s callback of a received PIX; PIX_ENVIADO: Efí\'s of a sent one; DEVOLUCAO_ENVIADA and DEVOLUCAO_RECEBIDA: the one with its devoluções), attempted once more, to the URL it went to. Within 30 days of sandbox time; a PIX that is not the account\'s, or that had no such callback, is 400 WebhookOperacaoInvalida and nothing is sent.',
      security: [{ efiOAuth2: [RESEND.scope] }],
      body: ResendBody,
      response: { 202: Type.Unsafe<undefined>({ type: 'null', description: 'accepted, no body' }) },
    },
  }, async (request, reply) => {
    resend.resend(request.account!, request.body.tipo, request.body.e2eids)
    return reply.status(202).send()
  })
}
