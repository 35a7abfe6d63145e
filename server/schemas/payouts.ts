import { Type } from '@sinclair/typebox'
import { Amount, Document, IsoDate, RecordId, StringEnum } from './common.js'
import { ASYNC_ERROR_CODES } from '../domain/async-errors.js'
import { UUID_V4_PATTERN } from '../domain/ids.js'
import { TRANSACTION_KINDS } from '../store/state.js'

/**
 * Pay-outs: cash-out to a key (docs/gateway.md §2.4), cash-out by QR Code (2.5), the directory transfer (2.3),
 * and the control plane's transactions and key directory. Shape only; the rules that need the domain
 * (cents, check digits, key formats, CRC) are checked by PayoutService with their own error codes.
 */

export const CashOutKeyTypeSchema = StringEnum(['DOCUMENT', 'EMAIL', 'PHONE', 'RANDOM'] as const, { description: 'Type of details.key (spec 2.4)' })
export const DirectoryKeyTypeSchema = StringEnum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const, { description: 'Key type of the directory' })
export const AsyncErrorCodeSchema = StringEnum(ASYNC_ERROR_CODES, {
  description: 'Asynchronous error of spec 6.4',
})

// The spec gives no length for externalId; 255 keeps it a sane identifier (docs/assumptions.md, Pay-outs).
const ExternalId = Type.String({ minLength: 1, maxLength: 255, description: 'Unique per account across cash-out and cash-out-qrcode' })

export const CashOutBody = Type.Object({
  value: Amount({ description: 'BRL, min 0.01, at most 2 decimals' }),
  externalId: ExternalId,
  description: Type.Optional(Type.String({ maxLength: 140 })),
  details: Type.Object({
    key: Type.String({ minLength: 1, maxLength: 77, description: 'Destination key, in the format of keyType' }),
    keyType: CashOutKeyTypeSchema,
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Recipient name, informational' }),
    document: Document({ description: 'CPF (11 digits) or CNPJ (14) of the key holder, check digits verified' }),
  }),
})

export const QrCashOutBody = Type.Object({
  value: Amount({ description: 'BRL; must equal the amount embedded in the QR Code when there is one' }),
  qrCode: Type.String({ minLength: 50, maxLength: 500, pattern: '^000201', description: 'EMV PIX string (BR Code), CRC checked' }),
  externalId: ExternalId,
  description: Type.Optional(Type.String({ maxLength: 140 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Recipient name; the QR Code carries one too' })),
  document: Type.Optional(Document({ description: 'Recipient CPF or CNPJ' })),
})

export const PayoutCreated = Type.Object({
  transactionId: Type.String({ format: 'uuid' }),
  externalId: Type.String(),
  status: StringEnum(['PENDING', 'CONFIRMED', 'ERROR'] as const),
  generateTime: IsoDate('ISO 8601 UTC'),
})

export const DictTransferHeaders = Type.Object({
  'x-idempotency-key': Type.String({
    pattern: UUID_V4_PATTERN,
    description: 'UUID v4; a repeat returns the same transfer',
  }),
})

// Unknown fields (the spec's unnamed payment-flow field among them) are accepted and ignored.
export const DictTransferBody = Type.Object({
  pixKey: Type.String({ minLength: 1, maxLength: 77, description: 'CPF, CNPJ, e-mail, phone (+55...) or EVP' }),
  creditorDocument: Type.Optional(Type.String({ minLength: 1, maxLength: 14, description: 'CPF or CNPJ; required when priority is HIGH' })),
  priority: Type.Optional(StringEnum(['HIGH', 'NORM'] as const, { description: 'HIGH settles at once; NORM waits in the queue (default)' })),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  expiration: Type.Optional(Type.Integer({ minimum: 1, maximum: 10800, default: 600, description: 'Seconds a NORM transfer may wait in the queue before it is cancelled' })),
  payment: Type.Object({
    currency: Type.String({ minLength: 1, maxLength: 3, description: 'e.g. BRL' }),
    amount: Type.Number({ exclusiveMinimum: 0, description: 'BRL, at most 2 decimals' }),
  }),
  ispbDeny: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{8}$' }), { maxItems: 100, description: 'ISPBs the payment must not go to' })),
}, { additionalProperties: true })

export const DictTransferCreated = Type.Object({
  endToEndId: Type.String({ description: 'Provisional identifier (the transaction UUID); the real endToEndId arrives in the TRANSFER webhook' }),
  eventDate: IsoDate(),
  id: Type.Integer({ description: 'Numeric transaction id' }),
  payment: Type.Object({ amount: Type.Number() }),
  type: StringEnum(['PENDING', 'COMPLETED', 'ERROR'] as const),
})

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()])

export const CounterpartView = Type.Object({
  name: Type.String(),
  document: Type.String(),
  ispb: Type.String(),
  bankName: Type.String(),
  bankCode: Nullable(Type.String()),
  accountBranch: Nullable(Type.String()),
  accountNumber: Nullable(Type.String()),
  key: Type.Optional(Type.String()),
  generated: Type.Optional(Type.Literal(true, { description: 'The sandbox invented this holder, bank and account for a key its directory does not list (absent for a directory entry or an account of this sandbox)' })),
})

export const TransactionView = Type.Object({
  id: Type.String(),
  seq: Type.Integer(),
  accountId: Type.Integer(),
  kind: Type.String(),
  direction: StringEnum(['IN', 'OUT'] as const),
  status: Type.String(),
  amount: Type.Number({ description: 'BRL' }),
  fee: Type.Number({ description: 'BRL' }),
  externalId: Type.Optional(Type.String()),
  endToEndId: Type.Optional(Type.String()),
  idempotencyKey: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  pixKey: Type.Optional(Type.String()),
  counterpart: Type.Optional(CounterpartView),
  errorCode: Type.Optional(Nullable(Type.String())),
  errorMessage: Type.Optional(Nullable(Type.String())),
  scenarios: Type.Array(Type.Object({ name: Type.String(), params: Type.Record(Type.String(), Type.String()) })),
  data: Type.Object({}, { additionalProperties: true, description: 'Kind-specific fields, owned by the service of the kind' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  dueAt: Type.Optional(Type.String({ description: 'When the pending timed effect (settlement, expiry) is due' })),
  history: Type.Array(Type.Object({ status: Type.String(), at: Type.String(), reason: Type.Optional(Type.String()) })),
  actions: Type.Array(StringEnum(['settle', 'fail'] as const), { description: 'What POST /__sandbox/transactions/:id/settle and /fail accept for this record now: both for a pending pay-out or refund, none otherwise (a charge is paid, not settled)' }),
})

export const TransactionListQuery = Type.Object({
  accountId: Type.Optional(RecordId()),
  kind: Type.Optional(StringEnum(TRANSACTION_KINDS)),
  status: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })),
})

export const DirectoryEntryView = Type.Object({
  key: Type.String(),
  keyType: DirectoryKeyTypeSchema,
  name: Type.String(),
  document: Type.String(),
  ispb: Type.String(),
  bankName: Type.String(),
  bankCode: Type.Optional(Type.String()),
  accountBranch: Type.Optional(Type.String()),
  accountNumber: Type.Optional(Type.String()),
  accountStatus: Type.Optional(StringEnum(['ACTIVE', 'BLOCKED', 'CLOSED'] as const)),
})

export const DirectoryEntryBody = Type.Object({
  keyType: Type.Optional(DirectoryKeyTypeSchema),
  name: Type.String({ minLength: 1, maxLength: 140 }),
  document: Type.String({ minLength: 11, maxLength: 14, description: 'CPF or CNPJ of the key holder' }),
  ispb: Type.String({ pattern: '^[0-9]{8}$' }),
  bankName: Type.String({ minLength: 1, maxLength: 140 }),
  bankCode: Type.Optional(Type.String({ pattern: '^[0-9]{3}$' })),
  accountBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
  accountNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  accountStatus: Type.Optional(StringEnum(['ACTIVE', 'BLOCKED', 'CLOSED'] as const, { description: 'BLOCKED and CLOSED make settlements to the key fail' })),
})

export const TransactionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'Transaction UUID or its numeric id' }) })
export const TransactionList = Type.Object({ transactions: Type.Array(TransactionView) })
export const RefundReceivedBody = Type.Object({
  amount: Type.Optional(Type.Number({ minimum: 0.01 })),
  reason: Type.Optional(Type.String({ maxLength: 140 })),
})
export const FailTransactionBody = Type.Object({ errorCode: AsyncErrorCodeSchema })

export const DirectoryKeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 77, description: 'The key; URL-encode it (a phone key starts with +55)' }) })
export const DirectoryList = Type.Object({ entries: Type.Array(DirectoryEntryView) })
