import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Ports, RecNotifications } from '../ports.js'
import type { Account, Recurrence, WebhookRegistration } from '../store/state.js'
import type { WebhookService } from '../webhooks/service.js'
import type { RecWebhook } from '../schemas/webhooks.js'
import { recNotification } from './rec-views.js'

/**
 * API Pix's webhook of recurrences (`/webhookrec`; docs/api-pix.md, Pix Automático): one URL per
 * account, whose `{webhookUrl}/rec` receives `{ "recs": [RecNotification] }` at each status change of
 * the account's recurrences, through the sandbox's delivery machinery (signed, retried, logged, bent
 * by the delivery scenarios of the POST /rec that created the recurrence). Kept as a registration of
 * event type `rec`.
 */

const CALLBACK = '/rec'

export type RecWebhookDeps = Pick<Ports, 'store'> & { webhooks: Pick<WebhookService, 'registrations' | 'emit'> }

export class RecWebhooks implements RecNotifications {
  constructor (private readonly deps: RecWebhookDeps) {}

  private registered (account: Account): WebhookRegistration | undefined {
    return this.deps.webhooks.registrations.list(account.id).find(w => w.eventType === 'rec')
  }

  /** PUT /webhookrec: the account's URL, replacing the one it had. */
  configure (account: Account, webhookUrl: unknown): void {
    if (typeof webhookUrl !== 'string' || webhookUrl.length === 0 || webhookUrl.length > 2048) {
      throw invalidRequest('O campo webhookUrl não respeita o _schema_.', { fields: ['webhookUrl'] })
    }
    let callback: string
    try {
      const url = new URL(webhookUrl)
      url.pathname = url.pathname.replace(/\/$/, '') + CALLBACK
      callback = url.href
    } catch {
      throw invalidRequest(`A URL do webhook é inválida: ${webhookUrl}`, { fields: ['webhookUrl'] })
    }
    const previous = this.registered(account)
    this.deps.store.transact(() => {
      if (previous !== undefined) this.deps.webhooks.registrations.remove(previous.id)
      try {
        this.deps.webhooks.registrations.register({ accountId: account.id, eventType: 'rec', url: callback }, { httpsOnly: true })
      } catch (err) {
        // The registrations' refusals (not HTTPS, the sandbox itself) are API Pix's invalid request here.
        if (err instanceof Refusal && err.code !== 'ACCOUNT_NOT_FOUND') throw invalidRequest(err.messages, { fields: err.messages.map(() => 'webhookUrl') })
        throw err
      }
    })
  }

  /** GET /webhookrec: the URL as configured (without the `/rec` the sandbox calls) and when; 404 without one. */
  get (account: Account): { webhookUrl: string, criacao: string } {
    const w = this.registered(account)
    if (w === undefined) throw new Refusal('NOT_FOUND', 'Nenhum webhook de recorrências configurado para esta conta')
    const url = new URL(w.url)
    url.pathname = url.pathname.slice(0, -CALLBACK.length) || '/'
    return { webhookUrl: url.href, criacao: w.createdAt }
  }

  /** DELETE /webhookrec. */
  remove (account: Account): void {
    const w = this.registered(account)
    if (w === undefined) throw new Refusal('NOT_FOUND', 'Nenhum webhook de recorrências configurado para esta conta')
    this.deps.webhooks.registrations.remove(w.id)
  }

  /** RecNotifications: a recurrence's status changed (or it was created), inside the unit that changed it. */
  recChanged (rec: Recurrence): void {
    this.deps.webhooks.emit({ accountId: rec.accountId, eventType: 'rec', payload: { recs: [structuredClone(recNotification(rec)) as RecWebhook['recs'][number]] }, ...(rec.scenarios !== undefined ? { scenarios: rec.scenarios } : {}) })
  }
}
