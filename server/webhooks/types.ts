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
  /** Bumped when the same URL is registered again for the same event (spec 4.1, 9) or its headers change. */
  version: number
  createdAt: string
  updatedAt: string
}

/**
 * Why an attempt was made: the first one, a retry of the policy, the second copy of WEBHOOK_DUPLICATE,
 * or a manual redelivery. Only `first` and `retry` count towards webhookMaxAttempts.
 */
export type AttemptKind = 'first' | 'retry' | 'duplicate' | 'redeliver'

export interface DeliveryAttempt {
  /** Sandbox time the request was sent. */
  at: string
  kind: AttemptKind
  /** What the receiver answered; null when it never answered (network error, timeout). */
  statusCode: number | null
  /** Wall-clock milliseconds from sending to the end of the response (or the error). */
  latencyMs: number | null
  /** Why the attempt counts as failed; null when it succeeded. */
  error: string | null
  /** The first kilobyte of the receiver's answer. */
  responseBody?: string | null
  /** The headers sent on this attempt (timestamp and signature change per attempt). */
  requestHeaders?: Record<string, string>
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped' | 'no_receiver'

export interface Delivery {
  /** Also sent as the X-Sandbox-Delivery-Id header; the same on every attempt and duplicate. */
  id: string
  /** Creation order across the whole sandbox (several deliveries share a frozen instant). */
  seq: number
  accountId: number
  eventType: EventType
  /** The event this delivery carries; one event fans out to one delivery per active URL. */
  eventId: string
  transactionId: string | null
  webhookId: number | null
  url: string | null
  status: DeliveryStatus
  /** Headers of the latest attempt (or of the next one, before any was made). */
  requestHeaders: Record<string, string>
  body: unknown
  attempts: DeliveryAttempt[]
  /** Sandbox time of the next scheduled attempt while pending; null otherwise. */
  nextAttemptAt: string | null
  /** Delivery faults applied, in header syntax (`WEBHOOK_DELAY;ms=500`). */
  scenarios: string[]
  /** Why a delivery failed without running out of attempts (PENDING_LIMIT: given up to bound memory). */
  failureReason?: string
  /** WEBHOOK_OUT_OF_ORDER: held back until a later event of the same transaction went first. */
  heldForReorder?: boolean
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
