import { Type, type Static } from '@sinclair/typebox'
import { Instant, Id, Cents, Text, Nullable, Open, OneOf, AppliedScenarioSchema } from './schema.js'
import { DATA_SCHEMAS } from './transaction-data.js'

/**
 * Transactions: a union on `kind`, each kind with its statuses and its `data` (`transaction-data.ts`),
 * owned by the service of that kind.
 */

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
