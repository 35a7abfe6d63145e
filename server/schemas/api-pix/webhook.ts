import { Type } from '@sinclair/typebox'
import { IsoDate } from '../common.js'
import { Instant, Paginacao, paging } from '../central-bank.js'

/**
 * The webhooks of BACEN's API Pix 2.9.0 (tag Webhook): PUT, GET and DELETE /webhook/{chave}, GET
 * /webhook. The callback they receive, `{ pix: [...] }` at `{webhookUrl}/pix`, is a payload of the
 * delivery log (schemas/webhooks.ts).
 */

export const ApiPixWebhookParams = Type.Object({ chave: Type.String({ minLength: 1, maxLength: 77, description: 'a key the account holds: its document, or a key of the directory held with its document at its institution' }) })

/** WebhookSolicitado. */
export const ApiPixWebhookBody = Type.Object({
  webhookUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s); the received PIX on the key are posted to {webhookUrl}/pix' }),
})

/** WebhookCompleto. */
export const ApiPixWebhook = Type.Object({
  webhookUrl: Type.String(),
  chave: Type.Optional(Type.String({ description: 'the key (every webhook of GET /webhook has one)' })),
  criacao: IsoDate('when the webhook was first configured'),
})

export const ApiPixWebhookListQuery = Type.Object({
  inicio: Type.Optional(Instant('RFC 3339: webhooks created at or after it')),
  fim: Type.Optional(Instant('RFC 3339: webhooks created at or before it')),
  ...paging,
})

export const ApiPixWebhookList = Type.Object({
  parametros: Type.Object({ inicio: Type.Optional(Type.String()), fim: Type.Optional(Type.String()), paginacao: Paginacao }),
  webhooks: Type.Array(ApiPixWebhook),
})
