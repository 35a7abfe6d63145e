import { Type, type Static } from '@sinclair/typebox'
import { Instant, Int, Id, Text, Nullable, Open, OneOf, Strings } from './schema.js'

/**
 * Webhooks: the gateway's registrations and the delivery log (docs/gateway.md §2.11, 6), owned by
 * WebhookService, and API Pix's webhooks (docs/api-pix.md, webhook), owned by ApiPixWebhookService;
 * both families' deliveries go through the same machinery and log.
 */

export const GATEWAY_EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const
/**
 * Every event type a registration takes: the gateway's (docs/gateway.md §6), which its own webhook
 * routes take, and `rec` (a recurrence's status changed), which the control plane's registrations take
 * beside API Pix's /webhookrec (docs/api-pix.md, Pix Automático).
 */
export const EVENT_TYPES = [...GATEWAY_EVENT_TYPES, 'rec'] as const
export type EventType = typeof EVENT_TYPES[number]

/**
 * API Pix's callbacks (docs/api-pix.md, webhook), each named after the path it is posted to under a
 * webhook's URL (`pix`: `{webhookUrl}/pix`): delivered to a webhook of API Pix (`apiPixWebhooks`)
 * through the same delivery machinery and log as the gateway's events. `rec` is an event type of the
 * registrations too.
 */
export const API_PIX_CALLBACKS = ['pix', 'cobr', 'rec'] as const
export type ApiPixCallback = typeof API_PIX_CALLBACKS[number]
/** What a delivery of the log carries from the built-in dialects: an event of the gateway, or a callback of API Pix (`rec` is both). */
export const DELIVERY_EVENT_TYPES = [...GATEWAY_EVENT_TYPES, ...API_PIX_CALLBACKS] as const
export type DeliveryEventType = typeof DELIVERY_EVENT_TYPES[number]

export const WebhookRegistrationSchema = Open({
  id: Id,
  accountId: Id,
  eventType: OneOf(EVENT_TYPES),
  url: Text,
  headers: Strings,
  isActive: Type.Boolean(),
  /** Bumped when the same URL is registered again for the same event (docs/gateway.md §4.1, 9) or its headers change. */
  version: Int({ minimum: 1 }),
  createdAt: Instant,
  updatedAt: Instant,
})

/**
 * Why an attempt was made: the first one, a retry of the policy, the second copy of WEBHOOK_DUPLICATE,
 * or a manual redelivery. Only `first` and `retry` count towards webhookMaxAttempts.
 */
export const ATTEMPT_KINDS = ['first', 'retry', 'duplicate', 'redeliver'] as const
export type AttemptKind = typeof ATTEMPT_KINDS[number]

const DeliveryAttemptSchema = Open({
  /** Sandbox time the request was sent. */
  at: Instant,
  kind: OneOf(ATTEMPT_KINDS),
  /** What the receiver answered; null when it never answered (network error, timeout). */
  statusCode: Nullable(Int()),
  /** Wall-clock milliseconds from sending to the end of the response (or the error). */
  latencyMs: Nullable(Type.Number()),
  /** Why the attempt counts as failed; null when it succeeded. */
  error: Nullable(Text),
  /** The first kilobyte of the receiver's answer. */
  responseBody: Type.Optional(Nullable(Text)),
  /** The headers sent on this attempt (timestamp and signature change per attempt). */
  requestHeaders: Type.Optional(Strings),
  /** The sandbox's client certificate was presented (mutual TLS to an https receiver); absent otherwise. */
  clientCertificate: Type.Optional(Type.Boolean()),
  /** A callback a PSP posts over mutual TLS went to a plain http receiver: neither TLS nor the certificate; absent otherwise. */
  plainHttp: Type.Optional(Type.Boolean()),
})
export type DeliveryAttempt = Static<typeof DeliveryAttemptSchema>

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dropped', 'no_receiver'] as const
export type DeliveryStatus = typeof DELIVERY_STATUSES[number]

export const DeliverySchema = Open({
  /** Also sent as the X-Sandbox-Delivery-Id header; the same on every attempt and duplicate. */
  id: Text,
  /** Creation order across the whole sandbox (several deliveries share a frozen instant). */
  seq: Id,
  accountId: Id,
  /**
   * One of DELIVERY_EVENT_TYPES (the built-in dialects'), or one another dialect's notifier names
   * (server/dialects/, its descriptor's `deliveries`): the log keeps whatever the registered dialects
   * deliver, so a data file of one build loads in another.
   */
  eventType: Type.String({ minLength: 1 }),
  /** The event this delivery carries; one event fans out to one delivery per active URL. */
  eventId: Text,
  transactionId: Nullable(Text),
  /** The gateway's registration it goes to; null without one (no receiver, or a callback of API Pix, which `url` names). */
  webhookId: Nullable(Id),
  url: Nullable(Text),
  status: OneOf(DELIVERY_STATUSES),
  /** Headers of the latest attempt (or of the next one, before any was made). */
  requestHeaders: Strings,
  /** Any JSON, but there: it is what was sent, and what a redelivery sends again. */
  body: Type.Unknown(),
  attempts: Type.Array(DeliveryAttemptSchema),
  /** Sandbox time of the next scheduled attempt while pending; null otherwise. */
  nextAttemptAt: Nullable(Instant),
  /** Delivery faults applied, in header syntax (`WEBHOOK_DELAY;ms=500`). */
  scenarios: Type.Array(Text),
  /** Why a delivery failed without running out of attempts (PENDING_LIMIT: given up to bound memory). */
  failureReason: Type.Optional(Text),
  /** WEBHOOK_OUT_OF_ORDER: held back until a later event of the same transaction went first. */
  heldForReorder: Type.Optional(Type.Boolean()),
  createdAt: Instant,
  updatedAt: Instant,
})

/**
 * How an API Pix webhook's receiver was checked when it was configured (docs/webhooks.md, mutual TLS):
 * `checked`, refused without the sandbox's client certificate and accepted with it, as Efí checks;
 * `certificate-only`, accepted with it (`x-skip-mtls-checking: true` skipped the request without);
 * `unchecked`, an https receiver kept without a check (the account's webhookMtlsCheck or
 * --webhook-mtls-check off); `plain-http`, a plain http receiver, posted to without TLS.
 */
export const MTLS_CHECKS = ['checked', 'certificate-only', 'unchecked', 'plain-http'] as const
export type MtlsCheck = typeof MTLS_CHECKS[number]

/**
 * A webhook of API Pix: where one of its callbacks (`callback`) is posted, `{webhookUrl}/<callback>`.
 * Apart from the gateway's registrations (`webhooks`): API Pix configures one URL per key (PUT
 * /webhook/{chave}), with no event types, custom headers or activation, and its deliveries carry API
 * Pix's bodies; both go through the same delivery machinery and log. At most one per account, callback
 * and key (checked on load).
 */
export const ApiPixWebhookSchema = Open({
  id: Id,
  accountId: Id,
  callback: OneOf(API_PIX_CALLBACKS),
  /** The key, in the directory's canonical form, whose received PIX it is told of; absent for a webhook of the whole account. */
  chave: Type.Optional(Type.String({ minLength: 1, maxLength: 77 })),
  /** As the sandbox's URL rules left it (the parser's canonical form, without a fragment). */
  webhookUrl: Type.String({ minLength: 1 }),
  /** How its receiver was checked when its URL was last configured; absent in documents written before it. */
  mtlsCheck: Type.Optional(OneOf(MTLS_CHECKS)),
  /** API Pix's `criacao`: when the webhook was first configured (a new URL keeps it). */
  createdAt: Instant,
  updatedAt: Instant,
})
