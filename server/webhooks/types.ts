/**
 * Webhook registrations and the delivery log (docs/gateway.md §2.11, 6). Owned by WebhookService; the record
 * shapes live with every other record in the store's leaf (`store/state.ts`).
 */
import { API_PIX_CALLBACKS as CALLBACKS, EVENT_TYPES as REGISTERED, GATEWAY_EVENT_TYPES as GATEWAY, type ApiPixCallback, type DeliveryEventType, type EventType } from '../store/state.js'
import type { WebhookPayload } from '../schemas/webhooks.js'
export {
  API_PIX_CALLBACKS, DELIVERY_EVENT_TYPES, EVENT_TYPES, GATEWAY_EVENT_TYPES, type ApiPixCallback, type AttemptKind, type Delivery, type DeliveryAttempt, type DeliveryEventType, type DeliveryStatus,
  type EventType, type WebhookRegistration,
} from '../store/state.js'

/** Whether registrations take a delivery's event type (the gateway's and `rec`; not `pix` and `cobr`, callbacks of API Pix alone, nor another dialect's). */
export const isEventType = (t: string): t is EventType => (REGISTERED as readonly string[]).includes(t)
/** Whether a delivery's event type is a callback of API Pix, posted to `{webhookUrl}/<callback>` (`rec` is an event type too). */
export const isApiPixCallback = (t: string): t is ApiPixCallback => (CALLBACKS as readonly string[]).includes(t)
/** Whether a delivery's event type is one of the gateway's events (docs/gateway.md §6.1). */
export const isGatewayEvent = (t: string): boolean => (GATEWAY as readonly string[]).includes(t)

/** The payload of an event type: its schema's for the built-in dialects' (server/schemas/webhooks.ts), whatever its dialect sends for another. */
export type PayloadOf<E extends string> = E extends DeliveryEventType ? WebhookPayload<E> : unknown

/**
 * What a dialect's notifier hands to the one delivery machinery (WebhookService: emit to the
 * registrations of its type, deliver to a callback URL, publishTo both): the payload of its event type.
 */
export interface WebhookEvent<E extends string = EventType> {
  accountId: number
  eventType: E
  transactionId?: string | null
  payload: PayloadOf<E>
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
