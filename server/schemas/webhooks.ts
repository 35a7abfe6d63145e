import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { RecordId, StringEnum } from './common.js'
import { MedRecordSchema, MedRefund } from './payins.js'
import { ApiPixPix } from '../dialects/api-pix/schemas/pix.js'
import { CobRNotificationView } from '../dialects/api-pix/schemas/cobr.js'
import { DELIVERY_EVENT_TYPES, EVENT_TYPES, GATEWAY_EVENT_TYPES, type DeliveryEventType } from '../store/state.js'

/** Webhook registrations (docs/gateway.md §2.11) and the delivery log of the control plane. */
export const EventTypeSchema = StringEnum(EVENT_TYPES, { description: 'Event type (spec 6.1)' })
/** What the delivery log holds: the gateway's event types, and API Pix's callbacks (docs/api-pix.md, webhook). */
const DELIVERY_EVENT_TYPE_ABOUT = 'Event type (spec 6.1), or pix, cobr and rec: API Pix\'s callbacks to {webhookUrl}/pix, {webhookUrl}/cobr and {webhookUrl}/rec (rec is also an event type of the control plane\'s registrations)'
export const DeliveryEventTypeSchema = StringEnum(DELIVERY_EVENT_TYPES, { description: DELIVERY_EVENT_TYPE_ABOUT })

/**
 * `schema` with its `eventType` taking every delivery event type of the app (`types`: its dialects'
 * `deliveries`, Mercado Pago's `mercado_pago_payment` among them), as the control plane's routes check
 * it and their OpenAPI document lists it. Its TypeScript type still names the built-in ones (the typed
 * client's): a dialect's own type reaches the handlers as the string it is, which is all they use.
 */
export function withDeliveryEventTypes<T extends TObject> (schema: T, types: readonly string[]): T {
  const extra = types.filter(type => !(DELIVERY_EVENT_TYPES as readonly string[]).includes(type))
  const eventType = StringEnum(types, { description: extra.length === 0 ? DELIVERY_EVENT_TYPE_ABOUT : `${DELIVERY_EVENT_TYPE_ABOUT}; or a dialect's own: ${extra.join(', ')}` })
  const required = schema.required?.includes('eventType') === true
  const { properties, required: _required, type: _type, ...options } = schema
  return Type.Object({ ...properties, eventType: required ? eventType : Type.Optional(eventType) }, options) as unknown as T
}

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

// ---- the payloads: what each event type delivers (docs/gateway.md §6) ------------------------------
// Each payload is defined here once: the envelope builders (server/webhooks/envelopes/) return these
// types, the samples of POST /__sandbox/webhooks/test too, and the typed client's deliveries carry
// them, so `delivery.body` is typed by `delivery.eventType`.

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
/** A sandbox extension of every payload: why it failed (docs/gateway.md §3.1), null on success. */
const Failure = { errorCode: Nullable(Type.String()), errorMessage: Nullable(Type.String()) }

/** The standard family's CashOut notification (docs/gateway.md §6.4), for /api/pix/cash-out and /api/pix/cash-out-qrcode. */
export const CashOutNotificationSchema = Type.Object({
  event: Type.Literal('CashOut'),
  status: StringEnum(['CONFIRMED', 'ERROR'] as const),
  transactionType: Type.Literal('PIX'),
  movementType: Type.Literal('DEBIT'),
  transactionId: Type.String(),
  externalId: Type.String(),
  endToEndId: Type.String(),
  pixKey: Type.String(),
  feeAmount: Type.Number(),
  originalAmount: Type.Number(),
  finalAmount: Type.Number({ description: 'originalAmount plus feeAmount' }),
  processingDate: Type.String({ format: 'date-time' }),
  ...Failure,
  counterpart: Type.Object({
    name: Type.String(),
    document: Type.String(),
    bank: Type.Object({
      bankISPB: Type.String(),
      bankName: Type.String(),
      bankCode: Nullable(Type.String()),
      accountBranch: Nullable(Type.String()),
      accountNumber: Nullable(Type.String()),
    }),
  }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
}, { description: 'eventType cash_out of /api/pix/cash-out and /api/pix/cash-out-qrcode (docs/gateway.md §6.4)' })
export type CashOutNotification = Static<typeof CashOutNotificationSchema>

const Payment = Type.Object({ amount: Type.String({ description: 'BRL as a decimal string' }), currency: Type.String() })

/** V2 TRANSFER (docs/gateway.md §6.3), for POST /dict/pix. */
export const TransferEnvelopeSchema = Type.Object({
  type: Type.Literal('TRANSFER'),
  data: Type.Object({
    id: Type.Integer(),
    txId: Nullable(Type.String()),
    pixKey: Type.String(),
    status: StringEnum(['LIQUIDATED', 'ERROR'] as const),
    payment: Payment,
    endToEndId: Nullable(Type.String({ description: 'null on a failed transfer' })),
    creditDebitType: Type.Literal('DEBIT'),
    idempotencyKey: Type.String(),
    creditorAccount: Type.Object({ name: Type.String(), document: Type.String({ description: 'masked' }), ispb: Type.String() }),
    remittanceInformation: Type.String(),
    // docs/gateway.md §6.3 shows LIQUIDATED only: a failed transfer adds why.
    errorCode: Type.Optional(Nullable(Type.String())),
    errorMessage: Type.Optional(Nullable(Type.String())),
  }),
}, { description: 'eventType cash_out of POST /dict/pix (docs/gateway.md §6.3)' })
export type TransferEnvelope = Static<typeof TransferEnvelopeSchema>

/** V2 RECEIVE (docs/gateway.md §6.3): a charge was paid, or a PIX arrived unsolicited (txId null). */
export const ReceiveEnvelopeSchema = Type.Object({
  type: Type.Literal('RECEIVE'),
  data: Type.Object({
    id: Type.Integer(),
    txId: Nullable(Type.String()),
    status: StringEnum(['LIQUIDATED', 'ERROR'] as const),
    payment: Payment,
    endToEndId: Type.String(),
    debtorAccount: Type.Object({ name: Type.String(), document: Type.String({ description: 'masked' }) }),
    ...Failure,
  }),
}, { description: 'eventType cash_in (docs/gateway.md §6.3)' })
export type ReceiveEnvelope = Static<typeof ReceiveEnvelopeSchema>

/** V2 REFUND (docs/gateway.md §6.3): DEBIT for a refund this account made (refund_in), CREDIT for one it received (refund_out). */
const refundEnvelope = <D extends 'DEBIT' | 'CREDIT'>(creditDebitType: D, description: string) => Type.Object({
  type: Type.Literal('REFUND'),
  data: Type.Object({
    id: Type.Integer({ description: 'the original payment' }),
    txId: Nullable(Type.String()),
    status: StringEnum(['REFUNDED', 'ERROR'] as const),
    payment: Payment,
    refunds: Type.Array(Type.Object({
      status: StringEnum(['LIQUIDATED', 'ERROR'] as const),
      payment: Type.Object({ amount: Type.Number(), currency: Type.String() }),
      endToEndId: Type.String({ description: 'the refund\'s own id (rtrId)' }),
      eventDate: Type.String({ format: 'date-time' }),
      information: Type.String(),
    }), { description: 'the refund this event is about' }),
    endToEndId: Type.String({ description: 'the original payment\'s' }),
    creditDebitType: Type.Literal(creditDebitType),
    ...Failure,
  }),
}, { description })

export const RefundInEnvelopeSchema = refundEnvelope('DEBIT', 'eventType refund_in (docs/gateway.md §6.3)')
export const RefundOutEnvelopeSchema = refundEnvelope('CREDIT', 'eventType refund_out: the REFUND envelope seen from the receiving side (docs/assumptions.md)')
export type RefundInEnvelope = Static<typeof RefundInEnvelopeSchema>
export type RefundOutEnvelope = Static<typeof RefundOutEnvelopeSchema>

/** `med_*`: the MED record of docs/gateway.md §2.10; an approval also carries the devolução that returned the money. */
export const MedEnvelopeSchema = Type.Object({
  type: Type.Literal('MED'),
  data: Type.Object({ ...MedRecordSchema.properties, refund: Type.Optional(MedRefund) }),
}, { description: 'eventType med_created, med_accepted and med_rejected (docs/assumptions.md)' })
export type MedEnvelope = Static<typeof MedEnvelopeSchema>

/** `rec`: API Pix's notification of recurrences (the callback of PUT /webhookrec, `{webhookUrl}/rec`, and what the registrations of `rec` receive), one RecNotification per change. */
export const RecWebhookSchema = Type.Object({
  recs: Type.Array(Type.Object({
    idRec: Type.String(),
    status: Type.String(),
    atualizacao: Type.Array(Type.Object({ status: Type.String(), data: Type.String() })),
    encerramento: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    ativacao: Type.Object({ tipoJornada: Type.String(), dadosJornada: Type.Optional(Type.Object({ txid: Type.String() })) }),
  })),
}, { description: 'eventType rec of API Pix\'s /webhookrec (docs/api-pix.md, Pix Automático)' })
export type RecWebhook = Static<typeof RecWebhookSchema>
/** API Pix's callback (docs/api-pix.md, webhook): the received PIX, as GET /pix/{e2eid} shows them, posted to `{webhookUrl}/pix`. */
export const PixCallbackSchema = Type.Object({
  pix: Type.Array(ApiPixPix),
}, { description: 'eventType pix: API Pix\'s callback of a received PIX, and of its devolução reaching DEVOLVIDO or NAO_REALIZADO (docs/api-pix.md)' })
export type PixCallback = Static<typeof PixCallbackSchema>

/** Pix Automático's callback (docs/api-pix.md, "Recurring charges"): a recurring charge whose status or attempts changed, posted to `{webhookUrl}/cobr`. */
export const CobRCallbackSchema = Type.Object({
  cobsr: Type.Array(CobRNotificationView),
}, { description: 'eventType cobr: API Pix\'s callback of a recurring charge at each change of its status or of one of its attempts (docs/api-pix.md)' })
export type CobRCallback = Static<typeof CobRCallbackSchema>

/** The payload of each event type. */
export const WebhookPayloadSchemas = {
  cash_in: ReceiveEnvelopeSchema,
  cash_out: Type.Union([CashOutNotificationSchema, TransferEnvelopeSchema]),
  refund_in: RefundInEnvelopeSchema,
  refund_out: RefundOutEnvelopeSchema,
  med_created: MedEnvelopeSchema,
  med_accepted: MedEnvelopeSchema,
  med_rejected: MedEnvelopeSchema,
  rec: RecWebhookSchema,
  pix: PixCallbackSchema,
  cobr: CobRCallbackSchema,
} satisfies Record<DeliveryEventType, TSchema>

export type WebhookPayloads = { [E in DeliveryEventType]: Static<typeof WebhookPayloadSchemas[E]> }
/** What a delivery of event type E carries as its body. */
export type WebhookPayload<E extends DeliveryEventType = DeliveryEventType> = WebhookPayloads[E]

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
  clientCertificate: Type.Optional(Type.Boolean({ description: 'true: the attempt went over mutual TLS, presenting the sandbox\'s client certificate (GET /__sandbox/webhooks/ca.pem); absent: without it (plain http, or an event type that does not present it)' })),
  plainHttp: Type.Optional(Type.Boolean({ description: 'true: a callback the sandbox presents its client certificate with (API Pix\'s) went to a plain http receiver, without TLS or the certificate (docs/webhooks.md, mutual TLS); absent otherwise' })),
})

export const DeliveryView = Type.Object({
  id: Type.String({ description: 'Also the X-Sandbox-Delivery-Id header, the same on every attempt' }),
  seq: Type.Integer(),
  accountId: Type.Integer(),
  eventType: Type.String({ description: 'Event type (spec 6.1); pix, cobr and rec: API Pix\'s callbacks to {webhookUrl}/pix, {webhookUrl}/cobr and {webhookUrl}/rec (rec is also an event type of the control plane\'s registrations); or an event type of another dialect\'s notifications' }),
  eventId: Type.String({ description: 'One event fans out to one delivery per active URL' }),
  transactionId: Type.Union([Type.String(), Type.Null()]),
  webhookId: Type.Union([Type.Integer(), Type.Null()], { description: 'The registration it goes to; null without one (no receiver, or a callback of API Pix)' }),
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
  eventType: Type.Optional(DeliveryEventTypeSchema),
  transactionId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(DeliveryStatusSchema),
})

// ---- the public routes, POST and GET /api/webhooks (docs/gateway.md §2.11) ----------------------------------

export const PublicWebhookBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL' }),
  // The gateway's own events: API Pix's `rec` goes to PUT /webhookrec's URL (and the control plane's registrations).
  eventType: StringEnum(GATEWAY_EVENT_TYPES, { description: 'Event type (spec 6.1)' }),
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
  eventType: DeliveryEventTypeSchema,
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

/**
 * A delivery of the log with its body typed by its event type: a union on `eventType`, so checking
 * `delivery.eventType === 'cash_in'` (or waiting for one event type) types `delivery.body`. The route
 * schema above keeps `body` open: the log serves what was sent, whatever version of the sandbox sent it.
 */
export type DeliveryOf<E extends string = DeliveryEventType> = E extends DeliveryEventType
  ? Omit<Static<typeof DeliveryView>, 'eventType' | 'body'> & { eventType: E, body: WebhookPayload<E> }
  // A type of another dialect of the app (Mercado Pago's mercado_pago_payment): its body as that dialect sends it.
  : Omit<Static<typeof DeliveryView>, 'eventType' | 'body'> & { eventType: E, body: unknown }
