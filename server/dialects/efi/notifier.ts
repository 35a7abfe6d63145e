import type { DomainEvent, Notifier } from '../../events.js'
import type { Store } from '../../store/store.js'
import type { WebhookService } from '../../webhooks/service.js'
import type { ApiPixWebhookService } from '../../services/api-pix-webhooks.js'
import type { PspSettingsService } from '../../services/psp-settings.js'
import { devolucaoOf, envioCallback, envioOf, type SentNotification } from './views.js'
import type { AccountConfigType } from './schemas.js'
import { EFI_SETTINGS } from './account.js'

/** The event type of Efí's callback of a sent PIX in the delivery log. */
export const PIX_SENT_EVENT = 'efi_pix_enviado'

export type EfiNotifierDeps = {
  store: Pick<Store, 'transaction'>
  webhooks: Pick<WebhookService, 'deliver'>
  /** Where the payer key's webhook posts: API Pix's webhook of the key. */
  webhookUrls: Pick<ApiPixWebhookService, 'pixCallbackUrl'>
  /** The account's settings (PUT /v2/gn/config): what the payer key's callbacks add. */
  settings: Pick<PspSettingsService, 'get'>
}

/**
 * Efí's callback of a sent PIX (docs/efi.md, Webhooks): a pay-out of its routes that settled or failed
 * is posted once, in Efí's shape, to the webhook of the key it was sent from (`{webhookUrl}/pix`,
 * API Pix's webhook of the key), through the one delivery machinery and bent by the delivery faults
 * its scenarios name. A pay-out whose key lost its webhook meanwhile is announced to no one.
 */
export class EfiNotifier implements Notifier {
  constructor (private readonly deps: EfiNotifierDeps) {}

  notify (event: DomainEvent): void {
    if (event.kind === 'refund-changed' && event.direction === 'out') return this.returned(event)
    if (event.kind !== 'payout-changed') return
    const tx = envioOf(this.deps.store.transaction(event.transactionId))
    if (tx === undefined || tx.status === 'PENDING') return
    const url = this.deps.webhookUrls.pixCallbackUrl(tx.accountId, tx.data.senderKey!)
    if (url === undefined) return
    const config = this.deps.settings.get(tx.accountId, EFI_SETTINGS) as AccountConfigType | undefined
    const notify: SentNotification | undefined = config?.pix.chaves?.[tx.data.senderKey!]?.envio?.webhook.notificacao
    this.deps.webhooks.deliver({ accountId: tx.accountId, eventType: PIX_SENT_EVENT, transactionId: tx.id, payload: envioCallback(tx, notify), ...(event.scenarios !== undefined ? { scenarios: event.scenarios } : {}) }, url)
  }

  /** A devolução received on a pay-out of Efí's routes: the sent PIX again, with that devolução. */
  private returned (event: Extract<DomainEvent, { kind: 'refund-changed' }>): void {
    const refund = this.deps.store.transaction(event.transactionId)
    if (refund === undefined || refund.kind !== 'REFUND_RECEIVED') return
    const tx = envioOf(this.deps.store.transaction(refund.data.originalId))
    const url = tx === undefined ? undefined : this.deps.webhookUrls.pixCallbackUrl(tx.accountId, tx.data.senderKey!)
    if (tx === undefined || url === undefined) return
    const payload = envioCallback(tx)
    payload.pix[0].devolucoes = [devolucaoOf(refund)]
    this.deps.webhooks.deliver({ accountId: tx.accountId, eventType: PIX_SENT_EVENT, transactionId: refund.id, payload, ...(event.scenarios !== undefined ? { scenarios: event.scenarios } : {}) }, url)
  }
}
