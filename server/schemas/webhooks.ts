import { Type } from '@sinclair/typebox'
import { RecordId, StringEnum } from './common.js'
import { EVENT_TYPES } from '../webhooks/types.js'

/** Webhook registrations (docs/gateway.md §2.11) and the delivery log of the control plane. */
export const EventTypeSchema = StringEnum(EVENT_TYPES, { description: 'Event type (spec 6.1)' })

export const HeaderItem = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 100, description: 'Header name (RFC 9110 token); host, content-length, connection, transfer-encoding, content-type and user-agent are reserved, and so are hop-by-hop names (Expect, Upgrade, Keep-Alive, TE, Trailer, Proxy-*) and X-Sandbox-*' }),
  value: Type.String({ maxLength: 1000, description: 'Visible Latin-1 characters, with spaces or tabs only between them' }),
})

export const HeaderList = Type.Array(HeaderItem, { maxItems: 5, description: 'At most 5 custom headers, sent with every delivery to this URL' })

const HeaderMap = Type.Record(Type.String(), Type.String(), { description: 'Custom headers, name to value' })

export const WebhookView = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  eventType: EventTypeSchema,
  url: Type.String(),
  headers: HeaderMap,
  isActive: Type.Boolean(),
  version: Type.Integer({ description: 'Bumped when the same URL is registered again for the event or its headers change' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})

/** The list entry of GET /api/webhooks (docs/gateway.md §2.11). */
export const PublicWebhookEntry = Type.Object({
  id: Type.Integer(),
  type: EventTypeSchema,
  url: Type.String(),
  headers: HeaderMap,
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
})

export const DeliveryStatusSchema = StringEnum(['pending', 'delivered', 'failed', 'dropped', 'no_receiver'] as const, {
  description: 'pending: attempts still to come; delivered: a 2xx came back; failed: every attempt failed; dropped: WEBHOOK_DROP; no_receiver: no active URL for the event',
})

const Attempt = Type.Object({
  at: Type.String({ format: 'date-time', description: 'Sandbox time the request was sent' }),
  kind: StringEnum(['first', 'retry', 'duplicate', 'redeliver'] as const),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Union([Type.Number(), Type.Null()], { description: 'Wall-clock milliseconds to the end of the answer or the error' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed (non-2xx, network error, timeout); null on success' }),
  responseBody: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'First kilobyte of the answer' })),
  requestHeaders: Type.Optional(HeaderMap),
})

export const DeliveryView = Type.Object({
  id: Type.String({ description: 'Also the X-Sandbox-Delivery-Id header, the same on every attempt' }),
  seq: Type.Integer(),
  accountId: Type.Integer(),
  eventType: EventTypeSchema,
  eventId: Type.String({ description: 'One event fans out to one delivery per active URL' }),
  transactionId: Type.Union([Type.String(), Type.Null()]),
  webhookId: Type.Union([Type.Integer(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  status: DeliveryStatusSchema,
  requestHeaders: HeaderMap,
  body: Type.Unknown({ description: 'The JSON body sent' }),
  attempts: Type.Array(Attempt),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  scenarios: Type.Array(Type.String(), { description: 'Delivery faults applied' }),
  failureReason: Type.Optional(Type.String({ description: 'Why a failed delivery was given up before its attempts ran out, e.g. PENDING_LIMIT' })),
  heldForReorder: Type.Optional(Type.Boolean()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})

export const DeliveryQuery = Type.Object({
  accountId: Type.Optional(RecordId()),
  eventType: Type.Optional(EventTypeSchema),
  transactionId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(DeliveryStatusSchema),
})

// ---- the public routes, POST and GET /api/webhooks (docs/gateway.md §2.11) ----------------------------------

export const PublicWebhookBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL' }),
  eventType: EventTypeSchema,
  headers: Type.Optional(HeaderList),
})
export const PublicWebhookAnswer = Type.Object({ success: Type.Boolean(), message: Type.String() })
export const PublicWebhookList = Type.Object({ accountId: Type.Integer(), webhooks: Type.Array(PublicWebhookEntry), total: Type.Integer() })

// ---- the control plane's registrations and delivery log -----------------------------------------

export const WebhookRegistrationBody = Type.Object({
  accountId: RecordId(),
  eventType: EventTypeSchema,
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  headers: Type.Optional(HeaderList),
})
export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookView), total: Type.Integer() })
export const WebhookPatchBody = Type.Object({ isActive: Type.Optional(Type.Boolean()), headers: Type.Optional(HeaderList) })

export const WebhookTestBody = Type.Object({
  accountId: RecordId(),
  eventType: EventTypeSchema,
  transactionId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
})
export const WebhookTestAnswer = Type.Object({ eventId: Type.String(), deliveries: Type.Array(DeliveryView) })

export const DeliveryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export const DeliveryListQuery = Type.Object({ ...DeliveryQuery.properties, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) })
export const DeliveryList = Type.Object({ deliveries: Type.Array(DeliveryView), total: Type.Integer() })
export const DeliveryWaitQuery = Type.Object({
  ...DeliveryQuery.properties,
  since: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'A delivery id: only deliveries made after it. Or an ISO 8601 instant of sandbox time: only deliveries created at or after it (inclusive, so the clock\'s `now` read before acting works with a frozen clock)',
  })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, default: 10_000 })),
})
