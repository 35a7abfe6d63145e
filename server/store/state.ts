import { Type, type Static } from '@sinclair/typebox'
import type { AppliedScenario, Endpoint } from '../../scenarios/types.js'
import type { BrCode } from '../domain/brcode.js'
import type { RngState } from '../domain/ids.js'
import type { SplitKeyType } from '../domain/keys.js'
import type { ApiPixScope } from '../domain/scopes.js'

/**
 * The shape of the sandbox's whole state: one JSON document, which is what `--data FILE` persists and
 * what `GET/PUT /__sandbox/snapshot` export and import. Collections are keyed by id so lookups and
 * deletes are O(1) and the document stays plain JSON. Amounts are integer cents.
 *
 * Every record type of the document lives here, in a leaf that imports nothing of the server, so the
 * store, the services and the domain agree on one shape. The types everyone sees are read-only all
 * the way down (`DeepReadonly`): a record changes only inside `Store.update` (or `add`, `remove`, ...),
 * which hands out a `Draft` and marks the record, so no change can slip past persistence or rollback.
 */

/** What the compiler lets the rest of the code do with a stored record: read it. */
export type DeepReadonly<T> =
  T extends (...args: never[]) => unknown ? T
    : T extends ReadonlyArray<infer U> ? ReadonlyArray<DeepReadonly<U>>
      : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T

/** Writable all the way down; what `Draft` is made of, and what a reply body may be typed as. */
export type Mutable<T> =
  T extends ReadonlyArray<infer U> ? Array<Mutable<U>>
    : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T

/**
 * A stored record, read-only all the way down, as a reply body: Fastify types a reply by its schema,
 * with writable arrays, and the serializer only reads it. Not a way to write: no Draft comes out.
 */
export const asReply = <T>(value: T): Mutable<T> => value as Mutable<T>

declare const DRAFT: unique symbol

/**
 * A record as `Store.update` hands it to its callback: writable, and branded, so a function that
 * changes a record (`ledger.reserve(account, ...)`) accepts only what the store handed out. A stored
 * record, read-only, does not type-check there, and neither does a copy made to get around it.
 */
export type Draft<T> = Mutable<T> & { readonly [DRAFT]: true }

/**
 * A record as `Store.patch` hands it out: its top-level fields writable, everything nested still
 * read-only (a change replaces a nested value, never edits it). A Draft is a Patch too.
 */
export type Patch<T> = { -readonly [K in keyof T]: T[K] } & { readonly [DRAFT]: true }

export type ProviderGroup = 'A' | 'B' | 'C' | 'D' | 'E'
export type SplitFrequency = 'IMMEDIATE' | 'HOURLY' | 'DAILY'

export interface AccountLimits {
  /** Largest single pay-out. */
  perTransactionCents: number
  /** Sum of pay-outs per calendar day in America/Sao_Paulo. */
  dailyCents: number
  /** Largest single pay-out between 20:00 and 06:00 in America/Sao_Paulo. */
  nightlyCents: number
}

interface AccountRecord {
  id: number
  name: string
  /** CNPJ of the account holder. */
  document: string
  ispb: string
  bankName: string
  clientId: string
  clientSecret: string
  /** SHA-256 fingerprints (upper-case hex with colons, as node:crypto prints them) linked to the account. */
  certificateFingerprints: string[]
  certificatePem: string
  providerGroup: ProviderGroup
  /** Whether the provider compares details.document with the key holder (groups B and D only). */
  documentCheck: boolean
  feeCents: number
  limits: AccountLimits
  /** The provider's minimum cash-in expiration, in seconds (docs/gateway.md §2.6 "some providers require a higher minimum"). */
  cashInMinExpirationSeconds: number
  splitFrequency: SplitFrequency
  balance: {
    availableCents: number
    blockedCents: number
  }
  /**
   * Running totals that let anyone check the ledger invariant (docs/assumptions.md, Balances):
   * available + blocked = opening + adjustments + settledIn - settledOut - fees.
   */
  totals: {
    openingCents: number
    adjustmentsCents: number
    settledInCents: number
    settledOutCents: number
    feesCents: number
  }
  createdAt: string
  /**
   * Which life of the account this is: a new value whenever the account is created, reset on its own,
   * recreated by a full reset or brought in by a snapshot import, and kept across a restart with --data.
   * A token names the incarnation it was issued for (server/auth/tokens.ts), so it never acts for the
   * account that took the id (or the credentials) after its own ended. Absent in documents written
   * before it existed: that life lasts until the account is next replaced.
   */
  incarnation?: string
  /**
   * The scopes of BACEN's API Pix the account is granted (docs/api-pix.md), as its creation set them;
   * absent: every one (an account created without a list, or in a document written before scopes).
   */
  scopes?: ApiPixScope[]
}
export type Account = DeepReadonly<AccountRecord>

/** What the ledger changes on an account (`Store.ledger`, domain/ledger.ts): its balance and totals. */
export type LedgerDraft = Draft<Pick<AccountRecord, 'balance' | 'totals'>>

export interface StateHistoryEntry {
  status: string
  at: string
  reason?: string
}

/** Every money movement, in either direction; `kind` says which endpoint or flow created it. */
export type TransactionKind =
  | 'CASH_OUT' | 'CASH_OUT_QRCODE' | 'DICT_TRANSFER' | 'SPLIT'
  | 'CASH_IN' | 'COB' | 'PIX_IN'
  | 'REFUND_IN' | 'DEVOLUCAO' | 'REFUND_RECEIVED'

export const TRANSACTION_KINDS: readonly TransactionKind[] = [
  'CASH_OUT', 'CASH_OUT_QRCODE', 'DICT_TRANSFER', 'SPLIT', 'CASH_IN', 'COB', 'PIX_IN', 'REFUND_IN', 'DEVOLUCAO', 'REFUND_RECEIVED',
]

export interface Counterpart {
  name: string
  document: string
  ispb: string
  bankName: string
  bankCode: string | null
  accountBranch: string | null
  accountNumber: string | null
  key?: string
  /**
   * true: the sandbox invented this holder, bank and account for a key the directory does not list
   * (services/directory.ts, generatedHolder); absent: the directory's entry, an account of this sandbox,
   * or the payer of a received payment.
   */
  generated?: true
}

// ---- what `data` holds, per kind: each owned by the service of that kind -----------------------------

/** Who paid a charge (or sent a PIX_IN); `accountId` when the payer is another account of this sandbox. */
export interface Payer {
  name: string
  document: string
  ispb: string
  bankName: string
  accountId?: number
}

export type SplitStatus = 'WAITING' | 'SCHEDULED' | 'PAID' | 'FAILED'

export interface SplitRecord {
  pixKey: string
  pixKeyType: SplitKeyType
  name: string
  document: string
  type: 'FIXED' | 'PERCENTAGE'
  value: number
  immediate: boolean
  amountCents: number
  status: SplitStatus
  dueAt?: string
  transactionId?: string
}

export interface ReceivedPayment {
  endToEndId: string
  amountCents: number
  payer: Payer
  at: string
}

export interface CobData {
  expiracao: number
  devedor?: { cpf?: string, cnpj?: string, nome: string }
  original: string
  modalidadeAlteracao: number
  chave?: string
  solicitacaoPagador?: string
  infoAdicionais?: Array<{ nome: string, valor: string }>
  locId: number
  /** BACEN: 0 on creation, incremented by 1 on each revision (PATCH); absent means 0. */
  revisao?: number
}

/** CASH_IN, COB and PIX_IN: a charge, which becomes the received payment when it is paid. */
export interface ChargeData {
  txid: string | null
  /** Payload URL of the dynamic code (without scheme); null for PIX_IN. */
  location: string | null
  pixCode: string | null
  correlationId?: string
  payer?: { fullName: string, document: string }
  additionalInfo?: Record<string, string>
  splits: SplitRecord[]
  received?: ReceivedPayment
  autoPayAt?: string
  cob?: CobData
}

/** SPLIT: one split of a paid charge, paid out of the receiving account. */
export interface SplitData {
  chargeId: string
  splitIndex: number
  type: SplitRecord['type']
  value: number
  immediate: boolean
}

export type Natureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE'

/** REFUND_IN and DEVOLUCAO: a refund of a received payment. */
export interface RefundData {
  originalId: string
  rtrId: string
  /** The devolução `id` (or refund-in externalId): unique per original endToEndId. */
  devolucaoId: string
  natureza: Natureza
  descricao?: string
  reason?: string
  motivo: string | null
  requestedAt: string
  settledAt?: string
}

/** REFUND_RECEIVED: a refund another institution sent back for one of the account's pay-outs. */
export interface RefundReceivedData {
  originalId: string
  reason: string | null
}

/** What every pay-out keeps: the São Paulo day its amount counts towards, and the directory key it pays. */
interface PayoutData {
  limitDay?: string
  directoryKey?: string
}

export interface CashOutData extends PayoutData {
  keyType: string
  name: string
  document: string
}

export interface QrCashOutData extends PayoutData {
  qrCode: string
  brCode: BrCode
  name?: string
  document?: string
  /** The charge of this sandbox the code pays, when it is one. */
  chargeId?: string
}

/** The body of the 201 of POST /dict/pix, kept on the record so a repeat answers exactly the same. */
export interface DictTransferResponse {
  endToEndId: string
  eventDate: string
  id: number
  payment: { amount: number }
  type: 'PENDING' | 'COMPLETED' | 'ERROR'
}

export interface DictTransferData extends PayoutData {
  directoryKey: string
  priority: 'HIGH' | 'NORM'
  expiration: number
  expiresAt: string
  settleAt?: string
  currency: string
  creditorDocument?: string
  ispbDeny?: string[]
  response?: DictTransferResponse
}

/** The `data` of each kind of transaction. */
export interface TransactionData {
  CASH_OUT: CashOutData
  CASH_OUT_QRCODE: QrCashOutData
  DICT_TRANSFER: DictTransferData
  SPLIT: SplitData
  CASH_IN: ChargeData
  COB: ChargeData
  PIX_IN: ChargeData
  REFUND_IN: RefundData
  DEVOLUCAO: RefundData
  REFUND_RECEIVED: RefundReceivedData
}

interface TransactionFields {
  /** UUID, the transactionId of the standard family. */
  id: string
  /** Numeric id (the directory transfer's `id`, `existingTransactionId`, MED's originalTransactionId). */
  seq: number
  accountId: number
  direction: 'IN' | 'OUT'
  status: string
  amountCents: number
  feeCents: number
  externalId?: string
  endToEndId?: string
  idempotencyKey?: string
  description?: string
  pixKey?: string
  counterpart?: Counterpart
  errorCode?: string | null
  errorMessage?: string | null
  /** Scenario names applied at creation, kept so settlement (maybe after a restart) applies them too. */
  scenarios?: AppliedScenario[]
  createdAt: string
  updatedAt: string
  /** When a timed effect (settlement, expiry) is due, so it can be rescheduled after a restart. */
  dueAt?: string
  history: StateHistoryEntry[]
}

/** What the store keeps in every kind's `data` for its indexes (`Store.addTransaction`, `addRef`). */
export interface IndexedData {
  /** The externalId namespace it is unique in (`transactionByExternalId`). */
  externalIdScope?: string
  /** Other names it is found by (`transactionByRef`): a cob's txid, a charge's QR location, an rtrId. */
  refs?: string[]
}

/** A transaction of one kind, its `data` typed by the kind: a union on `kind` (narrow with `tx.kind === ...`). */
type TransactionRecordOf<K extends TransactionKind> = K extends TransactionKind ? TransactionFields & { kind: K, data: TransactionData[K] & IndexedData } : never
type TransactionRecord = TransactionRecordOf<TransactionKind>
export type Transaction = DeepReadonly<TransactionRecord>
/** A transaction of the given kinds (`TransactionOf<'CASH_IN' | 'COB'>`). */
export type TransactionOf<K extends TransactionKind> = DeepReadonly<TransactionRecordOf<K>>

export const CHARGE_KINDS = ['CASH_IN', 'COB', 'PIX_IN'] as const
export const REFUND_KINDS = ['REFUND_IN', 'DEVOLUCAO'] as const
export const PAYOUT_KINDS = ['CASH_OUT', 'CASH_OUT_QRCODE', 'DICT_TRANSFER'] as const
export type ChargeKind = typeof CHARGE_KINDS[number]
export type RefundKind = typeof REFUND_KINDS[number]
export type PayoutKind = typeof PAYOUT_KINDS[number]

/** Whether a transaction is of one of the kinds (and, for the compiler, its `data` is theirs). */
export function isKind<K extends TransactionKind, T extends { readonly kind: TransactionKind }> (tx: T, kinds: readonly K[]): tx is Extract<T, { readonly kind: K }> {
  return (kinds as readonly TransactionKind[]).includes(tx.kind)
}

interface DirectoryRecord {
  key: string
  keyType: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP'
  name: string
  document: string
  ispb: string
  bankName: string
  bankCode?: string
  accountBranch?: string
  accountNumber?: string
  /** Status of the destination account, used by the asynchronous settlement errors. */
  accountStatus?: 'ACTIVE' | 'BLOCKED' | 'CLOSED'
}
export type DirectoryEntry = DeepReadonly<DirectoryRecord>

/** A scenario armed for an account's next requests (for clients that cannot add headers). Owned by ScenarioService. */
interface ArmedScenarioRecord {
  id: number
  accountId: number
  scenario: string
  endpoint: Endpoint | null
  /** Requests left before it disarms itself; null means until disarmed. */
  remaining: number | null
  createdAt: string
}
export type ArmedScenario = DeepReadonly<ArmedScenarioRecord>

// ---- webhooks (docs/gateway.md §2.11, 6), owned by WebhookService -------------------------------------------

export const EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const
export type EventType = typeof EVENT_TYPES[number]

interface WebhookRegistrationRecord {
  id: number
  accountId: number
  eventType: EventType
  url: string
  headers: Record<string, string>
  isActive: boolean
  /** Bumped when the same URL is registered again for the same event (docs/gateway.md §4.1, 9) or its headers change. */
  version: number
  createdAt: string
  updatedAt: string
}
export type WebhookRegistration = DeepReadonly<WebhookRegistrationRecord>

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
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'dropped', 'no_receiver']

interface DeliveryRecord {
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
export type Delivery = DeepReadonly<DeliveryRecord>

// ---- MED (docs/gateway.md §2.10), owned by MedService ----------------------------------------------------------

export type MedStatus = 'OPEN' | 'RECEIVED' | 'CANCELLED' | 'ANALYZED'

interface MedRecordShape {
  id: number
  accountId: number
  endToEnd: string
  status: MedStatus
  reason: 'REFUND_REQUEST' | 'REFUND_CANCELLATION'
  cause: string | null
  description: string | null
  analysisResult: 'APPROVED' | 'REJECTED' | null
  analysisDetails: string | null
  requestingBank: { ispb: string, name: string }
  contestedBank: { ispb: string, name: string }
  originalTransaction: {
    amount: number
    type: string
    transactionType: string
    name: string
    document: string
    dateTime: string
  } | null
  isReconciled: boolean
  originalTransactionId: number | null
  /** Sandbox bookkeeping: the received payment disputed and, once approved, the devolução that returned it. */
  originalTransactionUuid?: string
  refundTransactionId?: string | null
  createdAt: string
  updatedAt: string
}
export type MedRecord = DeepReadonly<MedRecordShape>

// ---- API Pix's payload locations (docs/api-pix.md), owned by LocationService ----------------------------
// Records defined once, as a TypeBox schema and its Static type: the schema is what a document is
// validated against on load (store/document.ts), the type what the code reads.

/** The format of an instant as records keep it (ISO 8601, read strictly); store/document.ts registers it. */
export const INSTANT_FORMAT = 'pix-sandbox-instant'
const Instant = Type.String({ format: INSTANT_FORMAT })

/**
 * A payload location of API Pix: the URL (without scheme) where payers' PSPs read a charge's signed
 * payload, `<host>/qr/v2/<token>`. Its id comes from the `loc` sequence the root family's cobs also draw
 * their loc.id from; it serves the charge it is bound to, when it is.
 */
export const PayloadLocationSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  accountId: Type.Integer({ minimum: 1 }),
  tipoCob: Type.Union([Type.Literal('cob'), Type.Literal('cobv')]),
  /** At most 77 characters, as API Pix allows; its last segment is the token that finds it. */
  location: Type.String({ minLength: 1, maxLength: 77 }),
  createdAt: Instant,
  /** The transaction of the charge it serves; absent while it serves none (created alone, or unbound). */
  chargeId: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: true })
export type PayloadLocation = DeepReadonly<Static<typeof PayloadLocationSchema>>

/**
 * The key that signs payloads (ES256), kept in the state so that a restart with --data signs with the
 * same key and the JWKS a payer's PSP fetched stays good. The public part is what GET /.well-known/jwks.json
 * publishes; `id` is the key's `kid`.
 */
export const SigningKeySchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  alg: Type.Literal('ES256'),
  privateJwk: Type.Object({ kty: Type.Literal('EC'), crv: Type.Literal('P-256'), x: Type.String(), y: Type.String(), d: Type.String() }, { additionalProperties: true }),
  createdAt: Instant,
}, { additionalProperties: true })
export type SigningKey = DeepReadonly<Static<typeof SigningKeySchema>>

// ---- the document ---------------------------------------------------------------------------------

/** The keyed collections of the document, and the record each holds. */
export interface Collections {
  accounts: Account
  transactions: Transaction
  directory: DirectoryEntry
  armedScenarios: ArmedScenario
  webhooks: WebhookRegistration
  deliveries: Delivery
  meds: MedRecord
  locations: PayloadLocation
  signingKeys: SigningKey
}
export type Collection = keyof Collections
export const COLLECTIONS: readonly Collection[] = ['accounts', 'transactions', 'directory', 'armedScenarios', 'webhooks', 'deliveries', 'meds', 'locations', 'signingKeys']

/** The live state the store keeps in memory: the collections and the id sequences. */
export type State = { seq: Record<string, number> } & { [C in Collection]: Record<string, Collections[C]> }

/**
 * The sandbox clock as a document carries it. `now` is sandbox time when it was written; a running
 * clock also keeps `offsetMs` (sandbox time minus wall time), so a restart continues as if the clock
 * had kept running, while a snapshot import goes back to `now`.
 */
export interface ClockRecord {
  now: string
  frozen: boolean
  offsetMs?: number
}

export type { RngState }

/** What marks a JSON document as the sandbox's own, and the version of its layout. */
export const STATE_FORMAT = 'pix-sandbox/state'
/**
 * 2: the format marker, the clock, every record validated on load. 1 (no marker, `schemaVersion: 1`)
 * is read and migrated (the same records), and written back as 2 on the next write.
 */
export const STATE_FORMAT_VERSION = 2

/** A whole state as written to the data file and exported as a snapshot. */
export type StateDocument = {
  format: typeof STATE_FORMAT
  formatVersion: typeof STATE_FORMAT_VERSION
  clock?: ClockRecord
  rng?: RngState
} & State

export function emptyState (): State {
  return { seq: {}, accounts: {}, transactions: {}, directory: {}, armedScenarios: {}, webhooks: {}, deliveries: {}, meds: {}, locations: {}, signingKeys: {} }
}
