import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { SPLIT_KEY_TYPES } from '../../domain/keys.js'
import type { BrCode } from '../../domain/brcode.js'
import { Instant, Int, Id, Cents, Text, Nullable, Open, OneOf, OneOfNumbers, Strings, describes } from './schema.js'

/** The `data` of each kind of transaction: what a charge, a split, a refund or a pay-out keeps of its own. */

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
  /** The favorecido when it is an account of this sandbox (Efí's split): the split is credited to it as a received PIX. */
  accountId: Type.Optional(Id),
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
  /** Those of its refs that stop naming it at `at` (a dialect's idempotency key, kept 24 h of the clock): dropped then (`Store.dropRefs`). */
  refsExpiring: Type.Optional(Type.Object({ refs: Type.Array(Text), at: Text })),
}
export type IndexedData = Static<TObject<typeof Indexed>>

/**
 * A Mercado Pago payment (docs/mercado-pago.md): a CASH_IN charge created through POST /v1/payments keeps
 * what that request said and its answers show, which the charge itself does not hold.
 */
const MercadoPagoPaymentSchema = Open({
  /** Its `id` (a JSON number), also in its code's txid `mpqrinter<id>`. */
  paymentId: Id,
  payer: Open({
    /** Guest payer id Mercado Pago shows as `payer.id` (digits, as a string). */
    id: Text,
    email: Text,
    firstName: Type.Optional(Text),
    lastName: Type.Optional(Text),
    identification: Type.Optional(Open({ type: Text, number: Text })),
  }),
  externalReference: Type.Optional(Text),
  notificationUrl: Type.Optional(Text),
  statementDescriptor: Type.Optional(Text),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  additionalInfo: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  trackingId: Text,
  /** The `hash` of its ticket_url. */
  ticketHash: Text,
  /** The X-Idempotency-Key it was created with, and a digest of the request's body (a key reused for another body is refused). */
  idempotencyKey: Text,
  requestDigest: Text,
  /** Its `date_of_expiration`, as it was created (the charge's `dueAt` goes once it ends). */
  expiresAt: Instant,
})
export type MercadoPagoPayment = Static<typeof MercadoPagoPaymentSchema>

/** CASH_IN, COB and PIX_IN: a charge, which becomes the received payment when it is paid. */
const chargeData = <T extends { txid: TSchema, location: TSchema, pixCode: TSchema, received: TSchema, cob: TSchema }>(fields: T) => Open({
  ...Indexed,
  ...fields,
  correlationId: Type.Optional(Text),
  payer: Type.Optional(Open({ fullName: Text, document: Text })),
  additionalInfo: Type.Optional(Strings),
  splits: Type.Array(SplitRecordSchema),
  /** The PSP split configuration its splits came from (Efí's, linked through its routes): the /pix callback names it. */
  pspSplit: Type.Optional(Open({ id: Text, revisao: Int({ minimum: 0 }) })),
  autoPayAt: Type.Optional(Instant),
  mercadoPago: Type.Optional(MercadoPagoPaymentSchema),
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

/**
 * What every pay-out keeps: the São Paulo day its amount counts towards, the directory key it pays, and
 * the account's own key a PSP's pay-out API sends it from (Efí's `pagador.chave`, docs/efi.md), whose
 * webhook hears how it ends.
 */
const Payout = { ...Indexed, limitDay: Type.Optional(Text), directoryKey: Type.Optional(Text), senderKey: Type.Optional(Text) }

/** CASH_OUT: to a key (`keyType` the gateway's), or to account data (`keyType` ACCOUNT, the account's type in `accountType`: cacc, svgs). */
const CashOutDataSchema = Open({ ...Payout, keyType: Text, name: Text, document: Text, accountType: Type.Optional(Text) })
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
export const DATA_SCHEMAS = {
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
}
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
