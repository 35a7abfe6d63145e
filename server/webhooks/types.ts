/**
 * Webhook registrations and the delivery log (docs/gateway.md §2.11, 6). Owned by WebhookService; the record
 * shapes live with every other record in the store's leaf (`store/state.ts`).
 */
import { API_PIX_CALLBACKS as CALLBACKS, EVENT_TYPES as REGISTERED, type ApiPixCallback, type DeliveryEventType, type EventType } from '../store/state.js'
import type { WebhookPayload } from '../schemas/webhooks.js'
export {
  API_PIX_CALLBACKS, DELIVERY_EVENT_TYPES, EVENT_TYPES, GATEWAY_EVENT_TYPES, type ApiPixCallback, type AttemptKind, type Delivery, type DeliveryAttempt, type DeliveryEventType, type DeliveryStatus,
  type EventType, type WebhookRegistration,
} from '../store/state.js'

/** Whether registrations take a delivery's event type (every one but `pix` and `cobr`, callbacks of API Pix alone). */
export const isEventType = (t: DeliveryEventType): t is EventType => (REGISTERED as readonly string[]).includes(t)
/** Whether a delivery's event type is a callback of API Pix, posted to `{webhookUrl}/<callback>` (`rec` is an event type too). */
export const isApiPixCallback = (t: DeliveryEventType): t is ApiPixCallback => (CALLBACKS as readonly string[]).includes(t)

/**
 * What a capability hands to WebhookService.emit when money moves: the payload of its event type. A
 * callback of API Pix (`WebhookService.deliver`) is one too, of its callback's type.
 */
export interface WebhookEvent<E extends DeliveryEventType = EventType> {
  accountId: number
  eventType: E
  transactionId?: string | null
  payload: WebhookPayload<E>
  /** The scenarios applied to the operation; the delivery faults among them bend this delivery. */
  scenarios?: ReadonlyArray<{ readonly name: string, readonly params: Readonly<Record<string, string>> }>
}

/** What the webhook service reports about attempts that failed and deliveries that gave up. */
export interface FailedAttempt {
  deliveryId: string
  accountId: number
  eventType: string
  url: string | null
  attempt: number
  maxAttempts: number
  error: string
  /** When the next attempt is due (sandbox time), null when none will be made. */
  retryAt: string | null
}

export interface GaveUp {
  deliveryId: string
  accountId: number
  eventType: string
  url: string | null
  attempts: number
  reason: string
}
