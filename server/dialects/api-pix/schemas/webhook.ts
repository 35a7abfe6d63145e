import { Type } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { MTLS_CHECKS } from '../../../store/state.js'
import { Instant, Paginacao, paging } from '../../../schemas/central-bank.js'
import { NewestFirstQuery, NextCursor } from '../../../schemas/sandbox.js'

/**
 * The webhooks of BACEN's API Pix 2.9.0 (tag Webhook): PUT, GET and DELETE /webhook/{chave}, GET
 * /webhook; and Pix Automático's of the whole account (tags WebhookRec, WebhookCobR). The callbacks
 * they receive (`{ pix: [...] }` at `{webhookUrl}/pix`, ...) are payloads of the delivery log
 * (schemas/webhooks.ts).
 */

/** Efí's header on the routes that configure a webhook (docs/webhooks.md, mutual TLS). */
export const MtlsCheckHeaders = Type.Object({
  'x-skip-mtls-checking': Type.Optional(Type.String({ description: 'true (any case): the request without a client certificate is not made (Efí\'s skip-mTLS), the one with it still is; any other value: the whole check' })),
})

/** Whether a request asks for Efí's skip-mTLS. */
export const skipsMtlsChecking = (headers: { 'x-skip-mtls-checking'?: string }): boolean => headers['x-skip-mtls-checking']?.trim().toLowerCase() === 'true'

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

/** WebhookRecSolicitado, WebhookCobRSolicitado: the webhook of the whole account of a callback (`rec`, `cobr`). */
export const AccountWebhookBody = (callback: string, told: string) => Type.Object({
  webhookUrl: Type.String({ minLength: 1, maxLength: 2048, description: `http(s); ${told} is posted to {webhookUrl}/${callback}` }),
})

/** WebhookRecCompleto, WebhookCobRCompleto. */
export const AccountWebhookView = Type.Object({
  webhookUrl: Type.String(),
  criacao: IsoDate('when the webhook was first configured'),
})

/** A webhook as the control plane shows it (`GET /__sandbox/api-pix-webhooks`): WebhookCompleto, its account and callback. */
export const SandboxApiPixWebhook = Type.Object({
  ...ApiPixWebhook.properties,
  accountId: Type.Integer(),
  callback: Type.String({ description: 'what is posted to it: pix, the received PIX on its key, at {webhookUrl}/pix; rec, the changes of the account\'s recurrences, at {webhookUrl}/rec (no key); cobr, those of its recurring charges, at {webhookUrl}/cobr (no key)' }),
  callbackUrl: Type.String({ description: 'where its callback is posted: {webhookUrl}/<callback>' }),
  mtlsCheck: Type.Optional(StringEnum(MTLS_CHECKS, { description: 'how its receiver was checked when its URL was configured (docs/webhooks.md, mutual TLS): checked, refused without the sandbox\'s client certificate and accepted with it; certificate-only, accepted with it (x-skip-mtls-checking: true); unchecked, an https receiver kept without the check (the account\'s webhookMtlsCheck or --webhook-mtls-check off); plain-http, a plain http receiver, posted to without TLS or the certificate. Absent for a webhook configured before it was recorded' })),
})

export const SandboxApiPixWebhookListQuery = NewestFirstQuery('webhooks')

export const SandboxApiPixWebhookList = Type.Object({ webhooks: Type.Array(SandboxApiPixWebhook, { description: 'the last made first' }), nextCursor: NextCursor('webhooks') })
