import { FormatRegistry, Type, type Static, type TLiteral, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox'
import { ENDPOINTS, type AppliedScenario } from '../../scenarios/types.js'
import type { BrCode } from '../domain/brcode.js'
import { isIsoDate, parseInstant } from '../domain/instant.js'
import { COBR_REJEICAO_CODIGOS, COBR_STATUSES, TENTATIVA_STATUSES, TENTATIVA_TIPOS, TIPOS_CONTA } from '../domain/cobr.js'
import { COBR_CANCELAMENTO_CODIGOS } from '../domain/rec-lifecycle.js'
import { FORCED_OUTCOMES } from '../domain/cobr-debits.js'
import { SPLIT_KEY_TYPES } from '../domain/keys.js'
import { MAX_CENTS, TOTAL_LIMIT_CENTS } from '../domain/money.js'
import {
  ATORES, PERIODICIDADES, POLITICAS_RETENTATIVA, REC_CANCELAMENTO_CODIGOS, REC_REJEICAO_CODIGOS, REC_STATUSES, SOLICREC_STATUSES, TIPOS_JORNADA,
  type RecAtivacao, type RecEncerramento, type RecTerms, type SolicRecDestinatario,
} from '../domain/rec-types.js'
import { API_PIX_SCOPES } from '../domain/scopes.js'

/**
 * Every record of the sandbox's state, defined once: a TypeBox schema per record, from which its type
 * derives (`Static`). The compiler reads the types; `store/document.ts` validates a loaded data file or
 * an imported snapshot against the very same schemas, so what the code assumes of a record is what a
 * document must hold (money as safe integers within the ledger's bounds, every required field, every
 * enumeration). The types here are writable, as a record is while it is built; everyone else sees them
 * read-only through `store/state.ts`, which re-exports this file.
 *
 * A constraint TypeBox cannot express stays in `document.ts`, next to where it is checked: a collection
 * key that is its record's id, the owner of every record, unique client ids, the sequences.
 */

// ---- building blocks --------------------------------------------------------------------------------

/** The JSON Schema format of an instant (`domain/instant.ts`), which `Date.parse` is too lenient to check. */
export const INSTANT_FORMAT = 'pix-sandbox-instant'
FormatRegistry.Set(INSTANT_FORMAT, value => parseInstant(value) !== null)

const Instant = Type.String({ format: INSTANT_FORMAT })
/** The JSON Schema format of a calendar date (`YYYY-MM-DD` that exists), as API Pix's dates are kept. */
export const DATE_FORMAT = 'pix-sandbox-date'
FormatRegistry.Set(DATE_FORMAT, value => isIsoDate(value))
const CalendarDate = Type.String({ format: DATE_FORMAT })
/** Every integer of the document is exact: past 2^53 a double skips integers, and the cents helpers refuse it. */
const Int = (bounds: { minimum?: number, maximum?: number } = {}) => Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...bounds })
const Id = Int({ minimum: 1 })
/** An amount one operation carries (a payment, a fee, a split): what `domain/money.ts` ever reads in. */
const Cents = Int({ minimum: 0, maximum: MAX_CENTS })
/** What an account holds, allows or has moved in total: within the ledger's bounds (`domain/ledger.ts`). */
const Holding = Int({ minimum: 0, maximum: TOTAL_LIMIT_CENTS })
const Text = Type.String()
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
/** A record may carry fields a later version added: read, kept, never relied on. */
const Open = <T extends TProperties>(fields: T): TObject<T> => Type.Object(fields, { additionalProperties: true })
const OneOf = <const T extends string>(values: readonly T[]): TUnion<Array<TLiteral<T>>> => Type.Union(values.map(v => Type.Literal(v)))
/** One of a few integers (API Pix's `modalidade`s). */
const OneOfNumbers = <const T extends number>(values: readonly T[]): TUnion<Array<TLiteral<T>>> => Type.Union(values.map(v => Type.Literal(v)))
const Strings = Type.Record(Type.String(), Text)

/**
 * A value type another layer owns (the domain's BR Code, the catalogue's applied scenario), stored in
 * a record: its schema says what a document must hold, and the compiler checks that it describes
 * exactly that type (a field added on one side and not the other does not compile).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const describes = <T>() => <S extends TSchema>(schema: S, ..._same: Same<Static<S>, T> extends true ? [] : ['the schema does not describe the type']): S => schema

/** A scenario applied to an operation, kept so that what it bends later (a settlement, a delivery) still applies it. */
const AppliedScenarioSchema = describes<AppliedScenario>()(Open({ name: Text, params: Strings }))

// ---- accounts ---------------------------------------------------------------------------------------

export const PROVIDER_GROUPS = ['A', 'B', 'C', 'D', 'E'] as const
export type ProviderGroup = typeof PROVIDER_GROUPS[number]
export const SPLIT_FREQUENCIES = ['IMMEDIATE', 'HOURLY', 'DAILY'] as const
export type SplitFrequency = typeof SPLIT_FREQUENCIES[number]

const AccountLimitsSchema = Open({
  /** Largest single pay-out. */
  perTransactionCents: Holding,
  /** Sum of pay-outs per calendar day in America/Sao_Paulo. */
  dailyCents: Holding,
  /** Largest single pay-out between 20:00 and 06:00 in America/Sao_Paulo. */
  nightlyCents: Holding,
})
export type AccountLimits = Static<typeof AccountLimitsSchema>

export const AccountSchema = Open({
  id: Id,
  name: Text,
  /** CNPJ of the account holder. */
  document: Text,
  ispb: Text,
  bankName: Text,
  clientId: Text,
  clientSecret: Text,
  /** SHA-256 fingerprints (upper-case hex with colons, as node:crypto prints them) linked to the account. */
  certificateFingerprints: Type.Array(Text),
  certificatePem: Text,
  providerGroup: OneOf(PROVIDER_GROUPS),
  /** Whether the provider compares details.document with the key holder (groups B and D only). */
  documentCheck: Type.Boolean(),
  feeCents: Cents,
  limits: AccountLimitsSchema,
  /** The provider's minimum cash-in expiration, in seconds (docs/gateway.md §2.6 "some providers require a higher minimum"). */
  cashInMinExpirationSeconds: Int({ minimum: 0 }),
  splitFrequency: OneOf(SPLIT_FREQUENCIES),
  balance: Open({ availableCents: Holding, blockedCents: Holding }),
  /**
   * Running totals that let anyone check the ledger invariant (docs/assumptions.md, Balances):
   * available + blocked = opening + adjustments + settledIn - settledOut - fees.
   */
  totals: Open({
    openingCents: Holding,
    adjustmentsCents: Int({ minimum: -TOTAL_LIMIT_CENTS, maximum: TOTAL_LIMIT_CENTS }),
    settledInCents: Holding,
    settledOutCents: Holding,
    feesCents: Holding,
  }),
  createdAt: Instant,
  /**
   * Which life of the account this is: a new value whenever the account is created, reset on its own,
   * recreated by a full reset or brought in by a snapshot import, and kept across a restart with --data.
   * A token names the incarnation it was issued for (server/auth/tokens.ts), so it never acts for the
   * account that took the id (or the credentials) after its own ended. Absent in documents written
   * before it existed: that life lasts until the account is next replaced.
   */
  incarnation: Type.Optional(Text),
  /**
   * The scopes of BACEN's API Pix the account is granted (docs/api-pix.md), as its creation set them;
   * absent: every one (an account created without a list, or in a document written before scopes).
   */
  scopes: Type.Optional(Type.Array(OneOf(API_PIX_SCOPES))),
})
export type AccountRecord = Static<typeof AccountSchema>

// ---- transactions -----------------------------------------------------------------------------------

/** Every money movement, in either direction; `kind` says which endpoint or flow created it. */
export const TRANSACTION_KINDS = [
  'CASH_OUT', 'CASH_OUT_QRCODE', 'DICT_TRANSFER', 'SPLIT', 'CASH_IN', 'COB', 'PIX_IN', 'REFUND_IN', 'DEVOLUCAO', 'REFUND_RECEIVED', 'COBV',
] as const
export type TransactionKind = typeof TRANSACTION_KINDS[number]

/**
 * The statuses each kind goes through (docs/gateway.md): the standard family's words for pay-outs,
 * cash-ins and refunds, BACEN's for a cob and a devolução. A record, and each entry of its history,
 * holds one of its own kind's.
 */
export const TRANSACTION_STATUSES = {
  CASH_OUT: ['PENDING', 'CONFIRMED', 'ERROR'],
  CASH_OUT_QRCODE: ['PENDING', 'CONFIRMED', 'ERROR'],
  DICT_TRANSFER: ['PENDING', 'COMPLETED', 'ERROR'],
  SPLIT: ['CONFIRMED', 'ERROR'],
  CASH_IN: ['PENDING', 'CONFIRMED', 'ERROR'],
  COB: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
  PIX_IN: ['CONFIRMED'],
  REFUND_IN: ['PENDING', 'CONFIRMED', 'ERROR'],
  DEVOLUCAO: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'],
  REFUND_RECEIVED: ['CONFIRMED'],
  COBV: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
} as const satisfies Record<TransactionKind, readonly string[]>
/** The statuses of the given kinds (`TransactionStatus<'COB'>`; all of them without an argument). */
export type TransactionStatus<K extends TransactionKind = TransactionKind> = typeof TRANSACTION_STATUSES[K][number]

const CounterpartSchema = Open({
  name: Text,
  document: Text,
  ispb: Text,
  bankName: Text,
  bankCode: Nullable(Text),
  accountBranch: Nullable(Text),
  accountNumber: Nullable(Text),
  key: Type.Optional(Text),
  /**
   * true: the sandbox invented this holder, bank and account for a key the directory does not list
   * (services/directory.ts, generatedHolder); absent: the directory's entry, an account of this sandbox,
   * or the payer of a received payment.
   */
  generated: Type.Optional(Type.Literal(true)),
})
export type Counterpart = Static<typeof CounterpartSchema>

/** Who paid a charge (or sent a PIX_IN); `accountId` when the payer is another account of this sandbox. */
const PayerSchema = Open({ name: Text, document: Text, ispb: Text, bankName: Text, accountId: Type.Optional(Id) })
export type Payer = Static<typeof PayerSchema>

export const SPLIT_STATUSES = ['WAITING', 'SCHEDULED', 'PAID', 'FAILED'] as const
export type SplitStatus = typeof SPLIT_STATUSES[number]
const SPLIT_TYPES = ['FIXED', 'PERCENTAGE'] as const

const SplitRecordSchema = Open({
  pixKey: Text,
  pixKeyType: OneOf(SPLIT_KEY_TYPES),
  name: Text,
  document: Text,
  type: OneOf(SPLIT_TYPES),
  value: Type.Number({ minimum: 0 }),
  immediate: Type.Boolean(),
  amountCents: Cents,
  status: OneOf(SPLIT_STATUSES),
  dueAt: Type.Optional(Instant),
  transactionId: Type.Optional(Text),
})
export type SplitRecord = Static<typeof SplitRecordSchema>

const ReceivedPaymentSchema = Open({ endToEndId: Text, amountCents: Cents, payer: PayerSchema, at: Instant })
export type ReceivedPayment = Static<typeof ReceivedPaymentSchema>

const CobDataSchema = Open({
  expiracao: Int(),
  devedor: Type.Optional(Open({ cpf: Type.Optional(Text), cnpj: Type.Optional(Text), nome: Text })),
  original: Text,
  modalidadeAlteracao: Int(),
  chave: Type.Optional(Text),
  solicitacaoPagador: Type.Optional(Text),
  infoAdicionais: Type.Optional(Type.Array(Open({ nome: Text, valor: Text }))),
  locId: Int(),
  /** BACEN: 0 on creation, incremented by 1 on each revision (PATCH); absent means 0. */
  revisao: Type.Optional(Int({ minimum: 0 })),
})
export type CobData = Static<typeof CobDataSchema>

/** A `modalidade` and its amount or percentage (`valorPerc`, API Pix's `\d{1,10}\.\d{2}`) of a due charge's `valor`. */
const CobVRate = <const M extends number>(modalidades: readonly M[]) => Open({ modalidade: OneOfNumbers(modalidades), valorPerc: Text })

/**
 * API Pix's due charge (cobv, docs/api-pix.md): what the receiver set, as `server/domain/cobv.ts`
 * checked it (`calendario` and `valor` are its CobVTerms: modalidades as integers, validadeAposVencimento
 * filled in), its location and revision, and the batch (lotecobv) that created it, if one did.
 */
const CobVDataSchema = Open({
  calendario: Open({ dataDeVencimento: Text, validadeAposVencimento: Int({ minimum: 0 }) }),
  valor: Open({
    original: Text,
    multa: Type.Optional(CobVRate([1, 2])),
    juros: Type.Optional(CobVRate([1, 2, 3, 4, 5, 6, 7, 8])),
    abatimento: Type.Optional(CobVRate([1, 2])),
    desconto: Type.Optional(Type.Union([
      Open({ modalidade: OneOfNumbers([1, 2]), descontoDataFixa: Type.Array(Open({ data: Text, valorPerc: Text })) }),
      Open({ modalidade: OneOfNumbers([3, 4, 5, 6]), valorPerc: Text }),
    ])),
  }),
  devedor: Open({
    cpf: Type.Optional(Text),
    cnpj: Type.Optional(Text),
    nome: Text,
    email: Type.Optional(Text),
    logradouro: Type.Optional(Text),
    cidade: Type.Optional(Text),
    uf: Type.Optional(Text),
    cep: Type.Optional(Text),
  }),
  chave: Text,
  solicitacaoPagador: Type.Optional(Text),
  infoAdicionais: Type.Optional(Type.Array(Open({ nome: Text, valor: Text }))),
  /** The payload location it was created at (collection `locations`), bound to it or not any more. */
  locId: Id,
  /** 0 on creation, 1 more on each revision that changes something. */
  revisao: Int({ minimum: 0 }),
  /** The id of the batch (lotecobv) that created it; absent for one created by PUT /cobv/{txid}. */
  loteCobVId: Type.Optional(Id),
})
export type CobVData = Static<typeof CobVDataSchema>

/** What the store keeps in every kind's `data` for its indexes (`Store.addTransaction`, `addRef`). */
const Indexed = {
  /** The externalId namespace it is unique in (`transactionByExternalId`). */
  externalIdScope: Type.Optional(Text),
  /** Other names it is found by (`transactionByRef`): a cob's txid, a charge's QR location, an rtrId. */
  refs: Type.Optional(Type.Array(Text)),
}
export type IndexedData = Static<TObject<typeof Indexed>>

/** CASH_IN, COB and PIX_IN: a charge, which becomes the received payment when it is paid. */
const chargeData = <T extends { txid: TSchema, location: TSchema, pixCode: TSchema, received: TSchema, cob: TSchema }>(fields: T) => Open({
  ...Indexed,
  ...fields,
  correlationId: Type.Optional(Text),
  payer: Type.Optional(Open({ fullName: Text, document: Text })),
  additionalInfo: Type.Optional(Strings),
  splits: Type.Array(SplitRecordSchema),
  autoPayAt: Type.Optional(Instant),
})
/** What every charge kind's `data` is at least: a COB always has its txid and cob, a PIX_IN its payment. */
const ChargeDataSchema = chargeData({
  txid: Nullable(Text),
  /** Payload URL of the dynamic code (without scheme); null for PIX_IN. */
  location: Nullable(Text),
  pixCode: Nullable(Text),
  received: Type.Optional(ReceivedPaymentSchema),
  cob: Type.Optional(CobDataSchema),
})
export type ChargeData = Static<typeof ChargeDataSchema>

/** SPLIT: one split of a paid charge, paid out of the receiving account. */
const SplitDataSchema = Open({ ...Indexed, chargeId: Text, splitIndex: Int({ minimum: 0 }), type: OneOf(SPLIT_TYPES), value: Type.Number({ minimum: 0 }), immediate: Type.Boolean() })
export type SplitData = Static<typeof SplitDataSchema>

export const NATUREZAS = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE'] as const
export type Natureza = typeof NATUREZAS[number]

/** REFUND_IN and DEVOLUCAO: a refund of a received payment. */
const RefundDataSchema = Open({
  ...Indexed,
  originalId: Text,
  rtrId: Text,
  /** The devolução `id` (or refund-in externalId): unique per original endToEndId. */
  devolucaoId: Text,
  natureza: OneOf(NATUREZAS),
  descricao: Type.Optional(Text),
  reason: Type.Optional(Text),
  motivo: Nullable(Text),
  requestedAt: Instant,
  settledAt: Type.Optional(Instant),
})
export type RefundData = Static<typeof RefundDataSchema>

/** REFUND_RECEIVED: a refund another institution sent back for one of the account's pay-outs. */
const RefundReceivedDataSchema = Open({ ...Indexed, originalId: Text, reason: Nullable(Text) })
export type RefundReceivedData = Static<typeof RefundReceivedDataSchema>

/** What every pay-out keeps: the São Paulo day its amount counts towards, and the directory key it pays. */
const Payout = { ...Indexed, limitDay: Type.Optional(Text), directoryKey: Type.Optional(Text) }

const CashOutDataSchema = Open({ ...Payout, keyType: Text, name: Text, document: Text })
export type CashOutData = Static<typeof CashOutDataSchema>

const BrCodeSchema = describes<BrCode>()(Open({
  payloadFormat: Text,
  singleUse: Type.Boolean(),
  key: Type.Optional(Text),
  location: Type.Optional(Text),
  amountCents: Type.Optional(Cents),
  merchantName: Text,
  merchantCity: Text,
  txid: Type.Optional(Text),
  description: Type.Optional(Text),
}))

const QrCashOutDataSchema = Open({
  ...Payout,
  qrCode: Text,
  brCode: BrCodeSchema,
  name: Type.Optional(Text),
  document: Type.Optional(Text),
  /** The charge of this sandbox the code pays, when it is one. */
  chargeId: Type.Optional(Text),
  /** The account of this sandbox a static code of a contract pays (Pix Automático, journey 4), when it is one. */
  receiverId: Type.Optional(Id),
})
export type QrCashOutData = Static<typeof QrCashOutDataSchema>

/** The body of the 201 of POST /dict/pix, kept on the record so a repeat answers exactly the same. */
const DictTransferResponseSchema = Open({
  endToEndId: Text,
  eventDate: Text,
  id: Id,
  payment: Open({ amount: Type.Number() }),
  type: OneOf(['PENDING', 'COMPLETED', 'ERROR']),
})
export type DictTransferResponse = Static<typeof DictTransferResponseSchema>

const DictTransferDataSchema = Open({
  ...Payout,
  directoryKey: Text,
  priority: OneOf(['HIGH', 'NORM']),
  expiration: Int(),
  expiresAt: Instant,
  settleAt: Type.Optional(Instant),
  currency: Text,
  creditorDocument: Type.Optional(Text),
  ispbDeny: Type.Optional(Type.Array(Text)),
  response: Type.Optional(DictTransferResponseSchema),
})
export type DictTransferData = Static<typeof DictTransferDataSchema>

/** The `data` of each kind of transaction, each owned by the service of that kind. */
const DATA_SCHEMAS = {
  CASH_OUT: CashOutDataSchema,
  CASH_OUT_QRCODE: QrCashOutDataSchema,
  DICT_TRANSFER: DictTransferDataSchema,
  SPLIT: SplitDataSchema,
  CASH_IN: ChargeDataSchema,
  COB: chargeData({ txid: Text, location: Text, pixCode: Text, received: Type.Optional(ReceivedPaymentSchema), cob: CobDataSchema }),
  PIX_IN: Open({
    ...chargeData({ txid: Nullable(Text), location: Nullable(Text), pixCode: Nullable(Text), received: ReceivedPaymentSchema, cob: Type.Optional(CobDataSchema) }).properties,
    /** The key a static code named, for a PIX paid through the static code of a contract (Pix Automático, journey 4). */
    chave: Type.Optional(Text),
  }),
  REFUND_IN: RefundDataSchema,
  DEVOLUCAO: RefundDataSchema,
  REFUND_RECEIVED: RefundReceivedDataSchema,
  /** A due charge of API Pix: a charge (paid as a cob is), whose amount depends on the day it is paid. */
  COBV: Open({
    ...chargeData({ txid: Text, location: Text, pixCode: Text, received: Type.Optional(ReceivedPaymentSchema), cob: Type.Optional(Type.Never()) }).properties,
    cobv: CobVDataSchema,
  }),
} satisfies Record<TransactionKind, TSchema>
/** The `data` of each kind (named here rather than mapped, so the compiler resolves each once). */
export interface TransactionData {
  CASH_OUT: CashOutData
  CASH_OUT_QRCODE: QrCashOutData
  DICT_TRANSFER: DictTransferData
  SPLIT: SplitData
  CASH_IN: ChargeData
  COB: Static<typeof DATA_SCHEMAS.COB>
  PIX_IN: Static<typeof DATA_SCHEMAS.PIX_IN>
  REFUND_IN: RefundData
  DEVOLUCAO: RefundData
  REFUND_RECEIVED: RefundReceivedData
  COBV: Static<typeof DATA_SCHEMAS.COBV>
}

/** A transaction of one kind: the fields of every kind, its own statuses, and its own `data`. */
const transactionSchema = <K extends TransactionKind>(kind: K) => {
  const status = OneOf<TransactionStatus<K>>(TRANSACTION_STATUSES[kind])
  return Open({
    /** UUID, the transactionId of the standard family. */
    id: Text,
    /** Numeric id (the directory transfer's `id`, `existingTransactionId`, MED's originalTransactionId). */
    seq: Id,
    accountId: Id,
    kind: Type.Literal(kind),
    direction: OneOf(['IN', 'OUT']),
    status,
    amountCents: Cents,
    feeCents: Cents,
    externalId: Type.Optional(Text),
    endToEndId: Type.Optional(Text),
    idempotencyKey: Type.Optional(Text),
    description: Type.Optional(Text),
    pixKey: Type.Optional(Text),
    counterpart: Type.Optional(CounterpartSchema),
    errorCode: Type.Optional(Nullable(Text)),
    errorMessage: Type.Optional(Nullable(Text)),
    /** Scenario names applied at creation, kept so settlement (maybe after a restart) applies them too. */
    scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
    data: DATA_SCHEMAS[kind] as (typeof DATA_SCHEMAS)[K],
    createdAt: Instant,
    updatedAt: Instant,
    /** When a timed effect (settlement, expiry) is due, so it can be rescheduled after a restart. */
    dueAt: Type.Optional(Instant),
    history: Type.Array(Open({ status, at: Instant, reason: Type.Optional(Text) })),
  })
}

/** One schema per kind (a union would report only "expected union value" for a broken record). */
export const TRANSACTION_SCHEMAS: { [K in TransactionKind]: ReturnType<typeof transactionSchema<K>> } = {
  CASH_OUT: transactionSchema('CASH_OUT'),
  CASH_OUT_QRCODE: transactionSchema('CASH_OUT_QRCODE'),
  DICT_TRANSFER: transactionSchema('DICT_TRANSFER'),
  SPLIT: transactionSchema('SPLIT'),
  CASH_IN: transactionSchema('CASH_IN'),
  COB: transactionSchema('COB'),
  PIX_IN: transactionSchema('PIX_IN'),
  REFUND_IN: transactionSchema('REFUND_IN'),
  DEVOLUCAO: transactionSchema('DEVOLUCAO'),
  REFUND_RECEIVED: transactionSchema('REFUND_RECEIVED'),
  COBV: transactionSchema('COBV'),
}
/** A transaction of the given kinds, its `data` and `status` theirs: a union on `kind` (narrow with `tx.kind === ...`). */
export type TransactionRecordOf<K extends TransactionKind> = K extends TransactionKind ? TransactionRecords[K] : never
/** Each kind's record, named so the compiler resolves each once (a generic `Static` nests too deep to infer through). */
interface TransactionRecords {
  CASH_OUT: Static<typeof TRANSACTION_SCHEMAS.CASH_OUT>
  CASH_OUT_QRCODE: Static<typeof TRANSACTION_SCHEMAS.CASH_OUT_QRCODE>
  DICT_TRANSFER: Static<typeof TRANSACTION_SCHEMAS.DICT_TRANSFER>
  SPLIT: Static<typeof TRANSACTION_SCHEMAS.SPLIT>
  CASH_IN: Static<typeof TRANSACTION_SCHEMAS.CASH_IN>
  COB: Static<typeof TRANSACTION_SCHEMAS.COB>
  PIX_IN: Static<typeof TRANSACTION_SCHEMAS.PIX_IN>
  REFUND_IN: Static<typeof TRANSACTION_SCHEMAS.REFUND_IN>
  DEVOLUCAO: Static<typeof TRANSACTION_SCHEMAS.DEVOLUCAO>
  REFUND_RECEIVED: Static<typeof TRANSACTION_SCHEMAS.REFUND_RECEIVED>
  COBV: Static<typeof TRANSACTION_SCHEMAS.COBV>
}
export type TransactionRecord = TransactionRecordOf<TransactionKind>
export type StateHistoryEntry = TransactionRecord['history'][number]

// ---- the key directory ------------------------------------------------------------------------------

export const DirectoryEntrySchema = Open({
  key: Text,
  keyType: OneOf(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']),
  name: Text,
  document: Text,
  ispb: Text,
  bankName: Text,
  bankCode: Type.Optional(Text),
  accountBranch: Type.Optional(Text),
  accountNumber: Type.Optional(Text),
  /** Status of the destination account, used by the asynchronous settlement errors. */
  accountStatus: Type.Optional(OneOf(['ACTIVE', 'BLOCKED', 'CLOSED'])),
})

// ---- scenarios armed per account, owned by ScenarioService -----------------------------------------

/** A scenario armed for an account's next requests (for clients that cannot add headers). */
export const ArmedScenarioSchema = Open({
  id: Id,
  accountId: Id,
  scenario: Text,
  endpoint: Nullable(OneOf(ENDPOINTS)),
  /** Requests left before it disarms itself; null means until disarmed. */
  remaining: Nullable(Int({ minimum: 0 })),
  createdAt: Instant,
})

// ---- webhooks (docs/gateway.md §2.11, 6), owned by WebhookService -----------------------------------

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

// ---- MED (docs/gateway.md §2.10), owned by MedService -------------------------------------------------

export const MED_STATUSES = ['OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED'] as const
export type MedStatus = typeof MED_STATUSES[number]

const Bank = Open({ ispb: Text, name: Text })

export const MedSchema = Open({
  id: Id,
  accountId: Id,
  endToEnd: Text,
  status: OneOf(MED_STATUSES),
  reason: OneOf(['REFUND_REQUEST', 'REFUND_CANCELLATION']),
  cause: Nullable(Text),
  description: Nullable(Text),
  analysisResult: Nullable(OneOf(['APPROVED', 'REJECTED'])),
  analysisDetails: Nullable(Text),
  requestingBank: Bank,
  contestedBank: Bank,
  originalTransaction: Nullable(Open({ amount: Type.Number(), type: Text, transactionType: Text, name: Text, document: Text, dateTime: Instant })),
  isReconciled: Type.Boolean(),
  originalTransactionId: Nullable(Id),
  /** Sandbox bookkeeping: the received payment disputed and, once approved, the devolução that returned it. */
  originalTransactionUuid: Type.Optional(Text),
  refundTransactionId: Type.Optional(Nullable(Text)),
  createdAt: Instant,
  updatedAt: Instant,
})

// ---- API Pix's payload locations (docs/api-pix.md), owned by LocationService ----------------------------

/**
 * A payload location of API Pix: the URL (without scheme) where payers' PSPs read a charge's signed
 * payload, `<host>/qr/v2/<token>`. Its id comes from the `loc` sequence the gateway's cobs also draw
 * their loc.id from; it serves the charge it is bound to, when it is.
 */
export const PayloadLocationSchema = Open({
  id: Id,
  accountId: Id,
  tipoCob: OneOf(['cob', 'cobv'] as const),
  /** At most 77 characters, as API Pix allows; its last segment is the token that finds it. */
  location: Type.String({ minLength: 1, maxLength: 77 }),
  createdAt: Instant,
  /** The transaction of the charge it serves; absent while it serves none (created alone, or unbound). */
  chargeId: Type.Optional(Type.String({ minLength: 1 })),
})

/**
 * The key that signs payloads (ES256), kept in the state so that a restart with --data signs with the
 * same key and the JWKS a payer's PSP fetched stays good. The public part is what GET /.well-known/jwks.json
 * publishes; `id` is the key's `kid`.
 */
export const SigningKeySchema = Open({
  id: Type.String({ minLength: 1 }),
  alg: Type.Literal('ES256'),
  privateJwk: Open({ kty: Type.Literal('EC'), crv: Type.Literal('P-256'), x: Text, y: Text, d: Text }),
  createdAt: Instant,
})

// ---- Pix Automático (docs/api-pix.md, Pix Automático), owned by RecurrenceService and PayerSimulation --

const IsoDay = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
const Decimal = Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$' })
const Applied = describes<AppliedScenario>()(Open({ name: Text, params: Strings }))

/** The receiver's terms of a recurrence, as `domain/rec.ts` checked them (RecTerms). */
const RecTermsSchema = describes<RecTerms>()(Open({
  vinculo: Open({
    objeto: Type.Optional(Text),
    contrato: Text,
    devedor: Type.Union([Open({ cpf: Text, nome: Text }), Open({ cnpj: Text, nome: Text })]),
  }),
  calendario: Open({ dataInicial: IsoDay, dataFinal: Type.Optional(IsoDay), periodicidade: OneOf(PERIODICIDADES) }),
  valor: Open({ valorRec: Type.Optional(Decimal), valorMinimoRecebedor: Type.Optional(Decimal) }),
  politicaRetentativa: OneOf(POLITICAS_RETENTATIVA),
  recebedor: Type.Optional(Open({ convenio: Type.Optional(Text) })),
  /** The recurrence location (`recLocations`) it is served at; dropped when that location is unbound from it. */
  loc: Type.Optional(Id),
  ativacao: Type.Optional(Open({ dadosJornada: Open({ txid: Text }) })),
}))

const RecAtivacaoSchema = describes<RecAtivacao>()(Open({ tipoJornada: OneOf(TIPOS_JORNADA), dadosJornada: Type.Optional(Open({ txid: Text })) }))

const RecEncerramentoSchema = describes<RecEncerramento>()(Type.Union([
  Open({ rejeicao: Open({ codigo: OneOf(REC_REJEICAO_CODIGOS), descricao: Text }) }),
  Open({ cancelamento: Open({ solicitante: OneOf(ATORES), codigo: OneOf(REC_CANCELAMENTO_CODIGOS), descricao: Text }) }),
]))

/**
 * A recurrence of Pix Automático (API Pix's `rec`): the receiver's terms, where its life stands
 * (`status`, and `atualizacao`, every status with when it was reached), how the payer approved it and
 * who the payer is, and how it ended. Keyed by its idRec.
 */
export const RecurrenceSchema = Open({
  idRec: Type.String({ pattern: '^[a-zA-Z0-9]{29}$' }),
  accountId: Id,
  status: OneOf(REC_STATUSES),
  terms: RecTermsSchema,
  ativacao: RecAtivacaoSchema,
  /** The payer's PSP and document, once a journey approved it (RecCompleta's `pagador`). */
  pagador: Type.Optional(Type.Union([Open({ ispbParticipante: Text, cpf: Text }), Open({ ispbParticipante: Text, cnpj: Text })])),
  /** The most a charge may take, set by the payer on approving a variable value. */
  valorMaximoPagadorCents: Type.Optional(Cents),
  encerramento: Type.Optional(RecEncerramentoSchema),
  atualizacao: Type.Array(Open({ status: OneOf(REC_STATUSES), data: Instant })),
  createdAt: Instant,
  /** When the sandbox expires it (the day after its dataFinal, São Paulo), while it can still expire. */
  dueAt: Type.Optional(Instant),
  /** Scenarios applied at its creation: what the simulated payer does about it. */
  scenarios: Type.Optional(Type.Array(Applied)),
  /** When the payer's PSP cancels it (REC_PAYER_PSP_CANCELS), while it is APROVADA. */
  payerCancelsAt: Type.Optional(Instant),
})

/** A location of a recurrence's payload (API Pix's `locrec`), `<host>/qr/v2/rec/<token>`, serving the recurrence it is bound to. */
export const RecLocationSchema = Open({
  id: Id,
  accountId: Id,
  location: Type.String({ minLength: 1, maxLength: 77 }),
  createdAt: Instant,
  /** The recurrence it serves; absent while it serves none (created alone, or unbound). */
  idRec: Type.Optional(Type.String({ minLength: 1 })),
})

/** A confirmation request of journey 1 (API Pix's `solicrec`): sent to the payer's PSP, answered by the payer. Keyed by its idSolicRec. */
export const SolicRecSchema = Open({
  idSolicRec: Type.String({ pattern: '^[a-zA-Z0-9]{29}$' }),
  accountId: Id,
  idRec: Text,
  status: OneOf(SOLICREC_STATUSES),
  /** dataExpiracaoSolicitacao as the receiver sent it. */
  dataExpiracaoSolicitacao: Instant,
  destinatario: describes<SolicRecDestinatario>()(Type.Union([
    Open({ conta: Text, ispbParticipante: Text, agencia: Type.Optional(Text), cpf: Text }),
    Open({ conta: Text, ispbParticipante: Text, agencia: Type.Optional(Text), cnpj: Text }),
  ])),
  atualizacao: Type.Array(Open({ status: OneOf(SOLICREC_STATUSES), data: Instant })),
  createdAt: Instant,
  /** When its next step is due (sent, received, answered, expired), while it is waiting. */
  dueAt: Type.Optional(Instant),
})

export const AUTHORIZATION_ANSWERS = ['APPROVE', 'REJECT', 'NO_ANSWER'] as const
export type AuthorizationAnswer = typeof AUTHORIZATION_ANSWERS[number]
/** How a simulated payer answers a debit (the `DebitAnswer` of server/ports.ts). */
export const DEBIT_ANSWERS = ['PAGA', 'REJEITADA_SALDO', 'REJEITADA', 'SEM_RESPOSTA'] as const

/**
 * How the simulated payers of an account's recurrences behave when nobody steers them: for every
 * payer of the account (no `document`), or for the debtor with that CPF or CNPJ. At most one per
 * account and document (checked on load).
 */
export const PayerBehaviourSchema = Open({
  id: Id,
  accountId: Id,
  document: Type.Optional(Type.String({ pattern: '^(\\d{11}|[0-9A-Z]{14})$' })),
  /** The answer to a confirmation request (journey 1) once it reaches the payer. */
  authorization: OneOf(AUTHORIZATION_ANSWERS),
  /** The code of a rejection (AP13 when absent). */
  rejectionCode: Type.Optional(OneOf(REC_REJEICAO_CODIGOS)),
  /** The most a charge may take, set on approving a variable value. */
  valorMaximoCents: Type.Optional(Cents),
  debit: OneOf(DEBIT_ANSWERS),
  createdAt: Instant,
  updatedAt: Instant,
})

// ---- API Pix's recurring charges (Pix Automático, docs/api-pix.md), owned by CobRService -----------------

const CobRRejeicaoSchema = Open({ codigo: OneOf(COBR_REJEICAO_CODIGOS), descricao: Text })

/** An attempt to settle a recurring charge (CobRTentativas' items), with what decides its outcome. */
const TentativaSchema = Open({
  /** The date it settles on; its debit runs at the sandbox's settlement time of that São Paulo day. */
  dataLiquidacao: CalendarDate,
  tipo: OneOf(TENTATIVA_TIPOS),
  endToEndId: Text,
  status: OneOf(TENTATIVA_STATUSES),
  atualizacao: Type.Array(Open({ status: OneOf(TENTATIVA_STATUSES), data: Instant })),
  rejeicao: Type.Optional(CobRRejeicaoSchema),
  /** Its debit was tried and the payer's PSP never answered: it expires at the end of its day. */
  semResposta: Type.Optional(Type.Literal(true)),
  /** Its morning debit found no funds: the payer's PSP tries again that evening (domain/cobr-debits.ts, EVENING_DEBIT_TIME). */
  semSaldo: Type.Optional(Type.Literal(true)),
  /** The scenarios of the request that asked for it (the charge's creation, or the retry), which bend its outcome. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
})

/**
 * A recurring charge of API Pix (CobR): what its receiver asked for (the fields of CobRSolicitada),
 * its recurrence's retry policy, its status and history, its attempts and, once paid, the received
 * PIX it became. `txid` is unique per account; `id` is the record's key.
 */
export const CobRSchema = Open({
  id: Id,
  accountId: Id,
  txid: Text,
  idRec: Text,
  /** The São Paulo date of its creation (calendario.criacao). */
  criacao: CalendarDate,
  createdAt: Instant,
  infoAdicional: Type.Optional(Text),
  calendario: Open({ dataDeVencimento: CalendarDate }),
  valor: Open({ original: Text }),
  ajusteDiaUtil: Type.Boolean(),
  recebedor: Open({ conta: Text, tipoConta: OneOf(TIPOS_CONTA), agencia: Type.Optional(Text) }),
  devedor: Type.Optional(Open({ email: Type.Optional(Text), logradouro: Type.Optional(Text), cidade: Type.Optional(Text), uf: Type.Optional(Text), cep: Type.Optional(Text) })),
  /** Its recurrence's, when it was created. */
  politicaRetentativa: OneOf(POLITICAS_RETENTATIVA),
  status: OneOf(COBR_STATUSES),
  atualizacao: Type.Array(Open({ status: OneOf(COBR_STATUSES), data: Instant })),
  encerramento: Type.Optional(Type.Union([
    Open({ cancelamento: Open({ solicitante: OneOf(ATORES), codigo: OneOf(COBR_CANCELAMENTO_CODIGOS), descricao: Text }) }),
    Open({ rejeicao: CobRRejeicaoSchema }),
  ])),
  tentativas: Type.Array(TentativaSchema),
  /** The received PIX (a PIX_IN transaction) its paid attempt became. */
  pixId: Type.Optional(Text),
  /** After a failed attempt: the last day a retry may be asked for (it expires the day after). */
  retentativaAte: Type.Optional(CalendarDate),
  /** The outcome the control plane forced on its next attempt's debit. */
  proximoDebito: Type.Optional(Open({ outcome: OneOf(FORCED_OUTCOMES), codigo: Type.Optional(OneOf(COBR_REJEICAO_CODIGOS)) })),
  /** When its next timed step is due (the instruction, a debit, an expiry), so a restart reschedules it. */
  dueAt: Type.Optional(Instant),
  /** The delivery faults of its webhooks: the scenarios of its creation. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
})

// ---- API Pix's webhooks (docs/api-pix.md, webhook), owned by ApiPixWebhookService ----------------------

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
  /** API Pix's `criacao`: when the webhook was first configured (a new URL keeps it). */
  createdAt: Instant,
  updatedAt: Instant,
})

// ---- API Pix's batches of due charges (lotecobv, docs/api-pix.md), owned by CobVBatchService -------------

/** Where each request of a batch stands (API Pix's LoteCobVConsultado). */
export const COBV_BATCH_ITEM_STATUSES = ['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const
export type CobVBatchItemStatus = typeof COBV_BATCH_ITEM_STATUSES[number]

/** API Pix's Problema: why a request of a batch was refused, as PUT or PATCH /cobv/{txid} would have answered it. */
const ProblemSchema = Open({
  type: Text,
  title: Text,
  status: Int({ minimum: 400, maximum: 599 }),
  detail: Text,
  violacoes: Type.Optional(Type.Array(Open({ razao: Text, propriedade: Type.Optional(Text), valor: Type.Optional(Text) }))),
})

/**
 * A batch of due charges (API Pix's lotecobv): the requests to create or revise its cobvs, each with
 * its own status, processed by the scheduler at `dueAt`. Its `id` is the receiver's own (PUT
 * /lotecobv/{id}), so two accounts may use one: the record's key is `<accountId>:<id>`.
 */
export const CobVBatchSchema = Open({
  key: Type.String({ pattern: '^[1-9][0-9]*:[1-9][0-9]*$' }),
  id: Id,
  accountId: Id,
  descricao: Text,
  createdAt: Instant,
  /** The host[:port] of the locations its cobvs are created at (that of the request that created the batch). */
  host: Text,
  /** Scenarios the batch's request applied, given to each cobv it creates. */
  scenarios: Type.Optional(Type.Array(describes<AppliedScenario>()(Open({ name: Text, params: Strings })))),
  /** When the requests EM_PROCESSAMENTO are processed; absent while none waits. */
  dueAt: Type.Optional(Instant),
  items: Type.Array(Open({
    txid: Text,
    status: OneOf(COBV_BATCH_ITEM_STATUSES),
    /** The request waiting while EM_PROCESSAMENTO: a creation (CobVSolicitada, PUT) or a revision (CobVRevisada, PATCH), as received. */
    pending: Type.Optional(Open({ revision: Type.Boolean(), body: Type.Unknown() })),
    /** NEGADA: the problem, as PUT or PATCH /cobv/{txid} would have answered it. */
    problema: Type.Optional(ProblemSchema),
    /** CRIADA: when its cobv was created. */
    criacao: Type.Optional(Instant),
  })),
})
export type CobVBatchRecord = Static<typeof CobVBatchSchema>

// ---- the collections of the document ------------------------------------------------------------------

/** What `document.ts` checks of a collection's records beyond their schema, in the records' own field names. */
export interface CollectionRecord<R = Record<string, unknown>> {
  schema: TSchema
  /** The field that is each record's key in the document; `id` when not said. */
  key?: keyof R & string
  /** The id sequence (`Store.nextSeq(name)`) whose value must be ahead of each record's `field`. */
  sequence?: { name: string, field: keyof R & string }
  /** Whether each record names an account (`accountId`) that must exist. */
  owned?: R extends { accountId: number } ? boolean : never
}
const collection = <S extends TSchema>(schema: S, about: Omit<CollectionRecord<Static<S>>, 'schema'> = {}) => ({ schema, ...about })

/**
 * Every keyed collection of the document: the schema of its records and what `document.ts` checks
 * beyond it. A new collection is one entry here: its type, its place in `State`, its collection in
 * every document and its checks on load follow.
 */
export const COLLECTION_RECORDS = {
  accounts: collection(AccountSchema, { sequence: { name: 'account', field: 'id' } }),
  /** Any kind's schema; a record is checked against its own kind's (`TRANSACTION_SCHEMAS`), so a problem names its field. */
  transactions: collection(
    Type.Union(TRANSACTION_KINDS.map(kind => TRANSACTION_SCHEMAS[kind])) as TUnion<Array<typeof TRANSACTION_SCHEMAS[TransactionKind]>>,
    { sequence: { name: 'transaction', field: 'seq' }, owned: true }
  ),
  directory: collection(DirectoryEntrySchema, { key: 'key' }),
  armedScenarios: collection(ArmedScenarioSchema, { sequence: { name: 'armedScenario', field: 'id' }, owned: true }),
  webhooks: collection(WebhookRegistrationSchema, { sequence: { name: 'webhook', field: 'id' }, owned: true }),
  deliveries: collection(DeliverySchema, { sequence: { name: 'delivery', field: 'seq' }, owned: true }),
  meds: collection(MedSchema, { sequence: { name: 'med', field: 'id' }, owned: true }),
  locations: collection(PayloadLocationSchema, { sequence: { name: 'loc', field: 'id' }, owned: true }),
  signingKeys: collection(SigningKeySchema),
  recurrences: collection(RecurrenceSchema, { key: 'idRec', owned: true }),
  recLocations: collection(RecLocationSchema, { sequence: { name: 'locrec', field: 'id' }, owned: true }),
  solicRecs: collection(SolicRecSchema, { key: 'idSolicRec', owned: true }),
  payerBehaviours: collection(PayerBehaviourSchema, { sequence: { name: 'payerBehaviour', field: 'id' }, owned: true }),
  cobrs: collection(CobRSchema, { sequence: { name: 'cobr', field: 'id' }, owned: true }),
  apiPixWebhooks: collection(ApiPixWebhookSchema, { sequence: { name: 'apiPixWebhook', field: 'id' }, owned: true }),
  cobvBatches: collection(CobVBatchSchema, { key: 'key', owned: true }),
}

export type Collection = keyof typeof COLLECTION_RECORDS
/** The record each collection holds, writable (the read-only form is `Collections` of `store/state.ts`). */
export type CollectionRecords = { [C in Collection]: C extends 'transactions' ? TransactionRecord : Static<typeof COLLECTION_RECORDS[C]['schema']> }
export const COLLECTIONS = Object.keys(COLLECTION_RECORDS) as readonly Collection[]

// ---- beside the records -------------------------------------------------------------------------------

/**
 * The sandbox clock as a document carries it. `now` is sandbox time when it was written; a running
 * clock also keeps `offsetMs` (sandbox time minus wall time), so a restart continues as if the clock
 * had kept running, while a snapshot import goes back to `now`.
 */
export const ClockSchema = Type.Object({ now: Instant, frozen: Type.Boolean(), offsetMs: Type.Optional(Type.Number()) })
export type ClockRecord = Static<typeof ClockSchema>
