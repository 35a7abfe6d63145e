import { createHmac } from 'node:crypto'
import type { DomainEvent, Notifier } from '../../events.js'
import type { Sandbox } from '../../sandbox.js'
import { isKind, REFUND_KINDS, type Transaction } from '../../store/state.js'
import type { AttemptToSign, DeliveryType } from '../../webhooks/samples.js'
import { refundData } from '../../services/refunds.js'
import { paymentOf, PAYMENT_ID_BASE } from './views.js'

/**
 * Mercado Pago's notifications (docs/mercado-pago.md, Notifications): each change of a payment,
 * `payment.created` at its creation and `payment.updated` after (paid, expired, cancelled, each
 * refund), posted to its notification_url, else to the account's webhook URL, with `data.id` and
 * `type` added to the URL's query, through the one delivery machinery as event type
 * `mercado_pago_payment`. Each attempt is signed: `x-signature: ts=<seconds>,v1=<hex>`, the HMAC-SHA256
 * of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` with the account's webhookSecret.
 */
export const EVENT_TYPE = 'mercado_pago_payment'
/** Notification ids are 12 digits, as production's. */
const NOTIFICATION_ID_BASE = 130_000_000_000

export interface PaymentNotification {
  action: 'payment.created' | 'payment.updated'
  api_version: 'v1'
  data: { id: string }
  date_created: string
  id: number
  live_mode: boolean
  type: 'payment'
  user_id: string
}

/** `yyyy-MM-ddTHH:mm:ssZ`: UTC without milliseconds, as production dates its notifications. */
const notificationDate = (ms: number): string => new Date(ms).toISOString().slice(0, 19) + 'Z'

/** The URL a notification goes to: its own query kept, `data.id` and `type` added. */
export function notificationTarget (url: string, paymentId: number): string {
  const target = new URL(url)
  target.searchParams.append('data.id', String(paymentId))
  target.searchParams.append('type', 'payment')
  return target.href
}

/** The manifest Mercado Pago signs, and its signature. */
export function signature (secret: string, dataId: string, requestId: string, ts: number): string {
  const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`
  return createHmac('sha256', secret).update(manifest).digest('hex')
}

export class MercadoPagoNotifier implements Notifier {
  constructor (private readonly sb: Sandbox) {}

  notify (event: DomainEvent): void {
    switch (event.kind) {
      case 'charge-changed': return this.payment(this.sb.store.transaction(event.transactionId), event.transition === 'created' ? 'payment.created' : 'payment.updated', event.scenarios)
      case 'pix-received': return this.payment(this.sb.store.transaction(event.transactionId), 'payment.updated', event.scenarios)
      case 'refund-changed': {
        if (event.direction !== 'in') return
        const refund = this.sb.store.transaction(event.transactionId)
        return this.payment(refund !== undefined && isKind(refund, REFUND_KINDS) ? this.sb.store.transaction(refundData(refund).originalId) : undefined, 'payment.updated', event.scenarios)
      }
    }
  }

  private payment (tx: Transaction | undefined, action: PaymentNotification['action'], scenarios: DomainEvent['scenarios']): void {
    const mp = tx === undefined ? undefined : paymentOf(tx)
    if (tx === undefined || mp === undefined) return
    const account = this.sb.store.account(tx.accountId)
    // The payment's notification_url takes precedence over the account's URL ("Your integrations").
    const url = mp.notificationUrl ?? account?.mercadoPago?.webhookUrl
    if (url === undefined || account?.mercadoPago === undefined) return
    const payload: PaymentNotification = {
      action,
      api_version: 'v1',
      data: { id: String(mp.paymentId) },
      date_created: notificationDate(this.sb.clock.now()),
      id: NOTIFICATION_ID_BASE + this.sb.store.nextSeq('mercado-pago-notification'),
      live_mode: account.mercadoPago.accessToken.startsWith('APP_USR-'),
      type: 'payment',
      user_id: String(account.mercadoPago.userId),
    }
    this.sb.webhooks.deliver({ accountId: tx.accountId, eventType: EVENT_TYPE, transactionId: tx.id, payload, ...(scenarios !== undefined ? { scenarios } : {}) }, notificationTarget(url, mp.paymentId))
  }
}

/** Its one event type: a sample, the account's webhook URL, and the signature of each attempt. */
export function mercadoPagoDeliveries (sb: Sandbox): Record<string, DeliveryType> {
  return {
    [EVENT_TYPE]: {
      sample: ctx => ({
        action: 'payment.updated',
        api_version: 'v1',
        data: { id: String(PAYMENT_ID_BASE + 1) },
        date_created: notificationDate(ctx.nowMs),
        id: NOTIFICATION_ID_BASE,
        live_mode: false,
        type: 'payment',
        user_id: String(ctx.account.mercadoPago?.userId ?? 0),
      } satisfies PaymentNotification),
      receivers: accountId => {
        const url = sb.store.account(accountId)?.mercadoPago?.webhookUrl
        return url === undefined ? [] : [notificationTarget(url, PAYMENT_ID_BASE + 1)]
      },
      headers: (attempt: AttemptToSign) => {
        const secret = sb.store.account(attempt.accountId)?.mercadoPago?.webhookSecret ?? ''
        let dataId = ''
        try {
          dataId = String((JSON.parse(attempt.body) as { data?: { id?: unknown } }).data?.id ?? '')
        } catch {}
        // A new request id and ts on each attempt, as production signs each retry anew.
        const requestId = sb.rng.uuid()
        const v1 = signature(attempt.forged ? `forged:${secret}` : secret, dataId, requestId, attempt.timestamp)
        return { 'x-request-id': requestId, 'x-signature': `ts=${attempt.timestamp},v1=${v1}` }
      },
    },
  }
}
