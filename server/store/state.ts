import type { AppliedScenario } from '../../scenarios/types.js'
import type { ArmedScenario } from '../../scenarios/resolver.js'
import type { Delivery, WebhookRegistration } from '../webhooks/types.js'
import type { MedRecord } from '../services/med-types.js'

/**
 * The shape of the sandbox's whole state: one JSON document, which is what lowdb persists with
 * `--data FILE` and what `GET/PUT /__sandbox/snapshot` export and import. Collections are keyed by id
 * so lookups and deletes are O(1) and the document stays plain JSON. Amounts are integer cents.
 */
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

export interface Account {
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
  /** The provider's minimum cash-in expiration, in seconds (spec 2.6 "some providers require a higher minimum"). */
  cashInMinExpirationSeconds: number
  splitFrequency: SplitFrequency
  balance: {
    availableCents: number
    blockedCents: number
  }
  /**
   * Running totals that let anyone check the ledger invariant of DESIGN.md section 4:
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
}

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

export interface Counterpart {
  name: string
  document: string
  ispb: string
  bankName: string
  bankCode: string | null
  accountBranch: string | null
  accountNumber: string | null
  key?: string
}

export interface Transaction {
  /** UUID, the transactionId of the standard family. */
  id: string
  /** Numeric id (the directory transfer's `id`, `existingTransactionId`, MED's originalTransactionId). */
  seq: number
  accountId: number
  kind: TransactionKind
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
  /** Kind-specific fields (charge, splits, refunds, QR code...), owned by the service of that kind. */
  data: Record<string, unknown>
  createdAt: string
  updatedAt: string
  /** When a timed effect (settlement, expiry) is due, so it can be rescheduled after a restart. */
  dueAt?: string
  history: StateHistoryEntry[]
}

export interface DirectoryEntry {
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

export interface State {
  schemaVersion: 1
  seq: Record<string, number>
  accounts: Record<string, Account>
  transactions: Record<string, Transaction>
  directory: Record<string, DirectoryEntry>
  /** Owned by ScenarioService. */
  armedScenarios: Record<string, ArmedScenario>
  /** Owned by WebhookService. */
  webhooks: Record<string, WebhookRegistration>
  /** Owned by WebhookService: the capped delivery log. */
  deliveries: Record<string, Delivery>
  /** Owned by MedService. */
  meds: Record<string, MedRecord>
}

export function emptyState (): State {
  return { schemaVersion: 1, seq: {}, accounts: {}, transactions: {}, directory: {}, armedScenarios: {}, webhooks: {}, deliveries: {}, meds: {} }
}
