/**
 * Webhook registrations and the delivery log (spec 2.11, 6). Owned by WebhookService.
 */
export const EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const
export type EventType = typeof EVENT_TYPES[number]

export interface WebhookRegistration {
  id: number
  accountId: number
  eventType: EventType
  url: string
  headers: Record<string, string>
  isActive: boolean
  /** Bumped when the same URL is registered again for the same event (spec 4.1, 9). */
  version: number
  createdAt: string
  updatedAt: string
}

export interface DeliveryAttempt {
  at: string
  statusCode: number | null
  latencyMs: number | null
  error: string | null
  responseBody?: string | null
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped' | 'no_receiver'

export interface Delivery {
  /** Also sent as the X-Sandbox-Delivery-Id header; the same on every attempt and duplicate. */
  id: string
  accountId: number
  eventType: EventType
  /** The event this delivery carries; one event fans out to one delivery per active URL. */
  eventId: string
  transactionId: string | null
  webhookId: number | null
  url: string | null
  status: DeliveryStatus
  requestHeaders: Record<string, string>
  body: unknown
  attempts: DeliveryAttempt[]
  nextAttemptAt: string | null
  scenarios: string[]
  createdAt: string
  updatedAt: string
}

/** What a capability hands to WebhookService.emit when money moves. */
export interface WebhookEvent {
  accountId: number
  eventType: EventType
  transactionId?: string | null
  payload: unknown
  /** The scenarios applied to the operation; the delivery faults among them bend this delivery. */
  scenarios?: ReadonlyArray<{ name: string, params: Record<string, string> }>
}
