import { Type, type Static } from '@sinclair/typebox'
import { Amount, Document, IsoDate, RecordId, StringEnum } from './common.js'
import { CHARGE_KINDS, MED_STATUSES } from '../store/state.js'
import { ISO_DATE_OR_DATE_TIME_PATTERN } from '../domain/instant.js'

/**
 * Schemas of the pay-in side: cash-in (docs/gateway.md §2.6), cob (2.8), refund-in (2.7), devolução (2.9), the
 * MED list (2.10, 4.1) and the control-plane operations that pay charges and open disputes.
 * Exactness of amounts and check digits of documents are domain rules, checked by the services.
 */
const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()])

// ---- cash-in ------------------------------------------------------------------------------------

export const SPLIT_KEY_TYPES = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'RANDOM'] as const

export const CashInSplit = Type.Object({
  pixKey: Type.String({ minLength: 1, maxLength: 255 }),
  pixKeyType: StringEnum(SPLIT_KEY_TYPES),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  document: Document({ pattern: '^(\\d{11}|\\d{14})$', description: 'CPF or CNPJ, digits only' }),
  type: StringEnum(['FIXED', 'PERCENTAGE'] as const, { description: 'FIXED: BRL amount; PERCENTAGE: percent of the gross amount (10 means 10%)' }),
  value: Type.Number({ minimum: 0.01, description: 'BRL (FIXED) or percent (PERCENTAGE), at most 2 decimals' }),
  immediate: Type.Optional(Type.Boolean({ default: false, description: 'true: paid right after confirmation; false: at the account\'s split frequency' })),
})

export const CashInBody = Type.Object({
  transaction: Type.Object({
    value: Amount(),
    description: Type.String({ minLength: 1, maxLength: 140 }),
    externalId: Type.String({ minLength: 1, maxLength: 255, description: 'unique per account' }),
    expirationTime: Type.Optional(Type.Integer({ minimum: 30, maximum: 604800, default: 86400, description: 'seconds' })),
    generateQrCode: Type.Optional(Type.Boolean({ default: false })),
  }),
  payer: Type.Object({
    fullName: Type.String({ minLength: 1, maxLength: 100 }),
    document: Document({ description: 'CPF (11 digits) or CNPJ (14)' }),
  }),
  additionalInfo: Type.Optional(Type.Record(Type.String(), Type.String(), { maxProperties: 10 })),
  splits: Type.Optional(Type.Array(CashInSplit, { maxItems: 10 })),
})
export type CashInBodyT = Static<typeof CashInBody>

export const CashInResponse = Type.Object({
  transactionId: Type.String(),
  correlationId: Type.String({ format: 'uuid' }),
  externalId: Type.String(),
  status: Type.String({ description: 'PENDING' }),
  pixCode: Type.String({ description: 'EMV copy-and-paste code (dynamic BR Code)' }),
  generateTime: IsoDate(),
  expirationDate: IsoDate(),
  qrCodeImage: Type.Optional(Type.String({ description: 'data:image/png;base64,... present only when generateQrCode is true' })),
})

// ---- cob ----------------------------------------------------------------------------------------

export const CobParams = Type.Object({ txid: Type.String({ pattern: '^[a-zA-Z0-9]{26,35}$', description: '26 to 35 alphanumerics' }) })

const InfoAdicional = Type.Object({ nome: Type.String({ minLength: 1, maxLength: 50 }), valor: Type.String({ minLength: 1, maxLength: 200 }) })

const Devedor = Type.Object({
  cpf: Type.Optional(Type.String({ description: '11 digits' })),
  cnpj: Type.Optional(Type.String({ description: '14 digits (sandbox assumption: the field name of a legal entity)' })),
  nome: Type.String({ minLength: 1, maxLength: 200 }),
})

export const CobBody = Type.Object({
  calendario: Type.Object({ expiracao: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, default: 86400, description: 'seconds after criacao' })) }),
  devedor: Type.Optional(Devedor),
  valor: Type.Object({
    original: Type.String({ description: 'decimal with exactly 2 places, e.g. "10.00"' }),
    modalidadeAlteracao: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, default: 0, description: '1: the payer may change the amount' })),
  }),
  chave: Type.Optional(Type.String({ minLength: 1, maxLength: 77 })),
  solicitacaoPagador: Type.Optional(Type.String({ maxLength: 140 })),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional, { maxItems: 50 })),
})
export type CobBodyT = Static<typeof CobBody>

/** BACEN's CobRevisada: every field optional; the receiver cancels with the status. */
export const CobPatchBody = Type.Object({
  calendario: Type.Optional(Type.Object({ expiracao: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'seconds after criacao' })) })),
  devedor: Type.Optional(Devedor),
  loc: Type.Optional(Type.Object({ id: Type.Integer({ description: 'the charge\'s own location; another is refused' }) })),
  status: Type.Optional(StringEnum(['REMOVIDA_PELO_USUARIO_RECEBEDOR'] as const, { description: 'the receiver cancels the charge' })),
  valor: Type.Optional(Type.Object({
    original: Type.Optional(Type.String({ description: 'decimal with exactly 2 places, e.g. "10.00"' })),
    modalidadeAlteracao: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  })),
  chave: Type.Optional(Type.String({ minLength: 1, maxLength: 77 })),
  solicitacaoPagador: Type.Optional(Type.String({ maxLength: 140 })),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional, { maxItems: 50 })),
})
export type CobPatchBodyT = Static<typeof CobPatchBody>

export const DevolucaoView = Type.Object({
  id: Type.String(),
  rtrId: Type.String(),
  valor: Type.String(),
  natureza: Type.String(),
  descricao: Type.Optional(Type.String()),
  horario: Type.Object({ solicitacao: IsoDate(), liquidacao: Type.Optional(IsoDate()) }),
  status: StringEnum(['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] as const),
  motivo: Type.Optional(Type.String()),
})

/** A received PIX in BACEN's `Pix` shape: GET /pix/{e2eid}, GET /pix and a paid cob's `pix[]`. */
export const PixView = Type.Object({
  endToEndId: Type.String(),
  txid: Type.Optional(Type.String({ description: 'the charge\'s txid; absent for a PIX that arrived without a charge' })),
  valor: Type.String(),
  chave: Type.Optional(Type.String()),
  horario: IsoDate(),
  pagador: Type.Object({ nome: Type.String(), cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()) }),
  devolucoes: Type.Array(DevolucaoView),
})

export const CobResponse = Type.Object({
  calendario: Type.Object({ criacao: IsoDate(), expiracao: Type.Integer() }),
  txid: Type.String(),
  revisao: Type.Integer(),
  loc: Type.Object({ id: Type.Integer(), location: Type.String(), tipoCob: Type.String(), criacao: IsoDate(), txid: Type.String() }),
  location: Type.String({ description: 'EMV copy-and-paste code, same as loc.location' }),
  status: StringEnum(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const),
  devedor: Type.Optional(Type.Object({ cpf: Type.Optional(Type.String()), cnpj: Type.Optional(Type.String()), nome: Type.String() })),
  valor: Type.Object({ original: Type.String(), modalidadeAlteracao: Type.Integer() }),
  chave: Type.String({ description: 'as sent; without one, the receiving account\'s document key' }),
  solicitacaoPagador: Type.Optional(Type.String()),
  infoAdicionais: Type.Optional(Type.Array(InfoAdicional)),
  pixCopiaECola: Type.String({ description: 'the same EMV code, as BACEN API 2.x names it' }),
  pix: Type.Optional(Type.Array(PixView, { description: 'payments received, once CONCLUIDA' })),
})

// ---- refunds ------------------------------------------------------------------------------------

export const RefundInParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'transactionId (or endToEndId) of the received payment' }) })

export const RefundInBody = Type.Object({
  refundValue: Amount({ description: 'BRL, may be partial, at most 2 decimals' }),
  reason: Type.Optional(Type.String({ maxLength: 140 })),
  externalId: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$', description: 'id of the refund; the `id` of PUT /pix/{e2eid}/devolucao/{id}' })),
})

export const RefundInResponse = Type.Object({
  transactionId: Type.String(),
  externalId: Type.String(),
  status: StringEnum(['PENDING', 'CONFIRMED', 'ERROR'] as const),
  refundValue: Type.Number(),
  providerTransactionId: Type.String({ description: 'the rtrId, as refunds[].endToEndId of the REFUND webhook' }),
  generateTime: IsoDate(),
})

export const DevolucaoParams = Type.Object({
  e2eid: Type.String({ pattern: '^[a-zA-Z0-9]{32}$', description: 'endToEndId of the received PIX' }),
  id: Type.String({ pattern: '^[a-zA-Z0-9]{1,35}$', description: 'refund id chosen by the caller' }),
})

export const DevolucaoBody = Type.Object({
  valor: Type.String({ description: 'decimal with exactly 2 places' }),
  natureza: Type.Optional(StringEnum(['ORIGINAL', 'RETIRADA'] as const, { default: 'ORIGINAL' })),
  descricao: Type.Optional(Type.String({ maxLength: 140 })),
})

// ---- MED ----------------------------------------------------------------------------------------

// The shape MedService reads (parseDateBound), checked here too so a malformed date is listed with
// the other invalid query fields (docs/gateway.md §7: one message per invalid field).

const Bank = Type.Object({ ispb: Type.String(), name: Type.String() })

export const MedRecordSchema = Type.Object({
  id: Type.Integer(),
  endToEnd: Type.String(),
  status: StringEnum(MED_STATUSES),
  reason: StringEnum(['REFUND_REQUEST', 'REFUND_CANCELLATION'] as const),
  cause: Nullable(Type.String()),
  description: Nullable(Type.String()),
  analysisResult: Type.Union([StringEnum(['APPROVED', 'REJECTED'] as const), Type.Null()]),
  analysisDetails: Nullable(Type.String()),
  requestingBank: Bank,
  contestedBank: Bank,
  originalTransaction: Type.Union([Type.Object({
    amount: Type.Number(),
    type: Type.String(),
    transactionType: Type.String(),
    name: Type.String(),
    document: Type.String({ description: 'masked' }),
    dateTime: IsoDate(),
  }), Type.Null()]),
  isReconciled: Type.Boolean(),
  originalTransactionId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: IsoDate(),
  updatedAt: IsoDate(),
})

export const MedListQuery = Type.Object({
  status: Type.Optional(StringEnum(MED_STATUSES)),
  isReconciled: Type.Optional(Type.Boolean()),
  startDate: Type.Optional(Type.String({ pattern: ISO_DATE_OR_DATE_TIME_PATTERN, description: 'ISO 8601 date or date-time' })),
  endDate: Type.Optional(Type.String({ pattern: ISO_DATE_OR_DATE_TIME_PATTERN, description: 'ISO 8601 date or date-time; a date alone includes that whole day' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})

export const MedListResponse = Type.Object({
  data: Type.Array(MedRecordSchema),
  metadata: Type.Object({ total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer(), totalPages: Type.Integer() }),
})

export const MedOpenBody = Type.Object({
  endToEndId: Type.String({ pattern: '^[a-zA-Z0-9]{32}$', description: 'endToEndId of a PIX this sandbox received' }),
  reason: StringEnum(['REFUND_REQUEST', 'REFUND_CANCELLATION'] as const),
  cause: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'e.g. UNAUTHORIZED_TRANSACTION, SOCIAL_ENGINEERING (fraud) or any other code (operational)' })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
})

export const MedTransitionBody = Type.Object({
  status: StringEnum(['RECEIVED', 'ANALYZED', 'CANCELLED'] as const),
  analysisResult: Type.Optional(StringEnum(['APPROVED', 'REJECTED'] as const)),
  analysisDetails: Type.Optional(Type.String({ maxLength: 2000 })),
})

export const MedRefund = Type.Union([Type.Object({
  id: Type.String(),
  rtrId: Type.String(),
  valor: Type.String(),
  natureza: Type.String(),
  status: Type.String(),
  motivo: Nullable(Type.String()),
}), Type.Null()])

// ---- control plane: payments that arrive ------------------------------------------------------

export const PayerBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  document: Type.String({ minLength: 11, maxLength: 14, description: 'CPF or CNPJ of the payer' }),
  ispb: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{8}$', description: 'payer\'s institution; default 00000000' })),
})

export const PixPayBody = Type.Object({
  pixCode: Type.String({ minLength: 1, maxLength: 512, description: 'EMV copy-and-paste code of a charge issued by this sandbox' }),
  amount: Type.Optional(Type.Number({ minimum: 0.01, description: 'BRL; required when the payer names the amount (a cob with modalidadeAlteracao 1, a static code without one); otherwise, when given, equal to what the charge asks now (a dynamic code\'s amount is its payload\'s, not in the code) or to a static code\'s' })),
  payer: Type.Optional(PayerBody),
})

export const PixIncomingBody = Type.Object({
  accountId: RecordId(),
  amount: Type.Number({ minimum: 0.01 }),
  payer: Type.Optional(PayerBody),
})

export const ReceivedPixView = Type.Object({
  transactionId: Type.String({ description: 'the cash-in transactionId (or the PIX_IN transaction); refund-in takes it' }),
  endToEndId: Type.String({ description: 'the received PIX; devolucao and MED take it' }),
  accountId: Type.Integer(),
  kind: StringEnum(CHARGE_KINDS),
  status: Type.String({ description: 'CONFIRMED (cash-in, PIX_IN), CONCLUIDA (cob, cobv), or the failure state of PAYMENT_ERROR' }),
  amount: Type.Number(),
  txid: Type.Union([Type.String(), Type.Null()]),
  errorCode: Type.Union([Type.String(), Type.Null()]),
})

// ---- control plane: MED disputes ---------------------------------------------------------------

export const SandboxMedView = Type.Object({ ...MedRecordSchema.properties, accountId: Type.Integer() })
export const SandboxMedList = Type.Object({ meds: Type.Array(SandboxMedView) })
export const MedTransitionView = Type.Object({ ...SandboxMedView.properties, refund: MedRefund })
