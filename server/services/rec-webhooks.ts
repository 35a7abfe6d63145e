import type { AccountCallbacks, RecNotifications } from '../ports.js'
import type { Recurrence } from '../store/state.js'
import type { WebhookService } from '../webhooks/service.js'
import type { RecWebhook } from '../schemas/webhooks.js'
import { recNotification } from './rec-views.js'

/**
 * The notifications of recurrences (docs/api-pix.md, Pix Automático): at each status change of an
 * account's recurrences, `{ "recs": [RecNotification] }` goes to its webhook of recurrences
 * (`/webhookrec`: API Pix's webhook of the whole account of callback `rec`, kept and delivered as
 * `/webhookcobr`'s of `cobr`), and to the gateway's registrations of event type `rec` (the control
 * plane's receivers), each its own delivery of one event, bent by the delivery scenarios of the
 * POST /rec that created the recurrence. The recurrence's idRec names its deliveries in the log
 * (`transactionId`), as a recurring charge's txid names its own.
 */

export type RecWebhookDeps = { webhooks: Pick<WebhookService, 'publishTo'>, callbacks: Pick<AccountCallbacks, 'callbackUrls'> }

export class RecWebhooks implements RecNotifications {
  constructor (private readonly deps: RecWebhookDeps) {}

  /** RecNotifications: a recurrence's status changed (or it was created), inside the unit that changed it. */
  recChanged (rec: Recurrence): void {
    // One event to /webhookrec and the registrations together, so WEBHOOK_OUT_OF_ORDER holds it at both;
    // with neither, its `no_receiver` record says that nothing was sent.
    this.deps.webhooks.publishTo({
      accountId: rec.accountId,
      eventType: 'rec',
      transactionId: rec.idRec,
      payload: { recs: [structuredClone(recNotification(rec)) as RecWebhook['recs'][number]] },
      ...(rec.scenarios !== undefined ? { scenarios: rec.scenarios } : {}),
    }, this.deps.callbacks.callbackUrls(rec.accountId, 'rec'))
  }
}
