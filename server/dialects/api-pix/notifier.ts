import type { DomainEvent, Notifier } from '../../events.js'
import type { Store } from '../../store/store.js'
import { isKind, REFUND_KINDS, type Transaction } from '../../store/state.js'
import type { WebhookService } from '../../webhooks/service.js'
import type { ApiPixWebhookService } from '../../services/api-pix-webhooks.js'
import { chargeData, receivedOf } from '../../services/charge-records.js'
import type { RecWebhook } from '../../schemas/webhooks.js'
import { cobrCallback, pixCallback } from './payloads.js'
import { recNotification } from './views/rec.js'
import { pixView, type ChargeViewDeps } from './views/cob.js'
import { cobrNotification, type CobRViewDeps } from './views/cobr.js'

export type ApiPixNotifierDeps = {
  store: Pick<Store, 'transaction' | 'data'>
  webhooks: Pick<WebhookService, 'deliver' | 'publishTo'>
  /** Where the account's webhooks post each callback. */
  webhookUrls: Pick<ApiPixWebhookService, 'hasWebhooks' | 'pixCallbackUrl' | 'callbackUrls'>
  /** What the views of a received PIX and of a recurring charge read. */
  views: ChargeViewDeps & CobRViewDeps
}

/**
 * API Pix's callbacks (docs/api-pix.md, webhook; Pix Automático): a PIX with a txid received on a key
 * with a webhook, when it is paid and when one of its devoluções ends, goes to `{webhookUrl}/pix`; a
 * recurring charge's change to `/webhookcobr`'s `{webhookUrl}/cobr`; a recurrence's change to
 * `/webhookrec`'s `{webhookUrl}/rec` and to the control plane's registrations of event type `rec`, as
 * one event. Each through the one delivery machinery, bent by the delivery faults the event carries.
 */
export class ApiPixNotifier implements Notifier {
  constructor (private readonly deps: ApiPixNotifierDeps) {}

  notify (event: DomainEvent): void {
    switch (event.kind) {
      case 'pix-received': return this.pix(this.deps.store.transaction(event.transactionId), event.scenarios)
      case 'refund-changed': {
        if (event.direction !== 'in') return
        const refund = this.deps.store.transaction(event.transactionId)
        return this.pix(refund !== undefined && isKind(refund, REFUND_KINDS) ? this.deps.store.transaction(refund.data.originalId) : undefined, event.scenarios)
      }
      // An acceptance that returned money ended a devolução of the PIX.
      case 'med-changed': return event.transition === 'accepted' && event.refundId !== undefined && event.transactionId !== null
        ? this.pix(this.deps.store.transaction(event.transactionId), event.scenarios)
        : undefined
      case 'recurring-charge-changed': return this.cobr(event)
      case 'recurrence-changed': return this.rec(event)
    }
  }

  /** A received PIX (credited) with a txid of API Pix, to the webhook of the key it was paid to, if any. */
  private pix (tx: Transaction | undefined, scenarios: DomainEvent['scenarios']): void {
    if (tx === undefined || !this.deps.webhookUrls.hasWebhooks() || receivedOf(tx) === undefined) return
    const chave = this.deps.views.pix.chaveOf(tx)
    const url = chave === undefined ? undefined : this.deps.webhookUrls.pixCallbackUrl(tx.accountId, chave)
    if (url === undefined) return
    this.deps.webhooks.deliver({ accountId: tx.accountId, eventType: 'pix', transactionId: tx.id, payload: pixCallback([{ ...pixView(this.deps.views, tx), ...gnExtras(tx) }]), ...(scenarios !== undefined ? { scenarios } : {}) }, url)
  }

  /** The charge's txid names its deliveries in the log (`transactionId`); its creation's delivery faults bend them. */
  private cobr (event: Extract<DomainEvent, { kind: 'recurring-charge-changed' }>): void {
    const [url] = this.deps.webhookUrls.callbackUrls(event.accountId, 'cobr')
    if (url === undefined) return
    const cobr = this.deps.store.data.cobrs[event.id]
    this.deps.webhooks.deliver({ accountId: event.accountId, eventType: 'cobr', transactionId: event.txid, payload: cobrCallback([cobrNotification(this.deps.views, cobr)]), ...(event.scenarios !== undefined ? { scenarios: event.scenarios } : {}) }, url)
  }

  /**
   * One event to `/webhookrec` and the registrations together, so WEBHOOK_OUT_OF_ORDER holds it at
   * both; with neither, its `no_receiver` record says that nothing was sent. The recurrence's idRec
   * names its deliveries in the log.
   */
  private rec (event: Extract<DomainEvent, { kind: 'recurrence-changed' }>): void {
    const rec = this.deps.store.data.recurrences[event.idRec]
    this.deps.webhooks.publishTo({
      accountId: event.accountId,
      eventType: 'rec',
      transactionId: event.idRec,
      payload: { recs: [structuredClone(recNotification(rec)) as RecWebhook['recs'][number]] },
      ...(event.scenarios !== undefined ? { scenarios: event.scenarios } : {}),
    }, this.deps.webhookUrls.callbackUrls(event.accountId, 'rec'))
  }
}

/** Efí's extension of the /pix callback: a charge paid with a split names its configuration (docs/efi.md, Split). */
function gnExtras (tx: Transaction) {
  const split = chargeData(tx).pspSplit
  return split === undefined ? {} : { gnExtras: { split: { id: split.id, revisao: split.revisao } } }
}
