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
 * plane's receivers), each its own delivery, bent by the delivery scenarios of the POST /rec that
 * created the recurrence.
 */

export type RecWebhookDeps = { webhooks: Pick<WebhookService, 'registrations' | 'emit'>, callbacks: AccountCallbacks }

export class RecWebhooks implements RecNotifications {
  constructor (private readonly deps: RecWebhookDeps) {}

  /** RecNotifications: a recurrence's status changed (or it was created), inside the unit that changed it. */
  recChanged (rec: Recurrence): void {
    const event = {
      accountId: rec.accountId,
      eventType: 'rec' as const,
      payload: { recs: [structuredClone(recNotification(rec)) as RecWebhook['recs'][number]] },
      ...(rec.scenarios !== undefined ? { scenarios: rec.scenarios } : {}),
    }
    const toWebhookRec = this.deps.callbacks.notify(event)
    // The registrations take it as every event of theirs; with none, its `no_receiver` record says
    // that nothing was sent, which a delivery to /webhookrec's URL already tells otherwise.
    if (!toWebhookRec || this.deps.webhooks.registrations.activeFor(rec.accountId, 'rec').length > 0) this.deps.webhooks.emit(event)
  }
}
