import {
  COLLECTIONS, type AccountRecord, type ClockRecord, type Collection, type CollectionRecords, type TransactionKind, type TransactionRecordOf,
} from './records.js'
import type { RngState } from '../domain/ids.js'
import type { DeepReadonly } from '../domain/readonly.js'

export * from './records.js'

/**
 * The shape of the sandbox's whole state: one JSON document, which is what `--data FILE` persists and
 * what `GET/PUT /__sandbox/snapshot` export and import. Collections are keyed by id so lookups and
 * deletes are O(1) and the document stays plain JSON. Amounts are integer cents.
 *
 * Every record of the document is defined once, as a schema in `records.ts` (re-exported here), from
 * which its type derives and against which a loaded document is validated. This file, a leaf that
 * imports nothing of the server but the records and the domain, is what the store, the services and
 * the domain see of them: read-only all the way down (`DeepReadonly`). A record changes only inside
 * `Store.update` (or `add`, `remove`, ...), which hands out a `Draft` and marks the record, so no
 * change can slip past persistence or rollback.
 */

/** What the compiler lets the rest of the code do with a stored record: read it (server/domain/readonly.ts). */
export type { DeepReadonly }

/** Writable all the way down: what `Draft` is made of, and a record under construction until it is added. */
export type Mutable<T> =
  T extends ReadonlyArray<infer U> ? Array<Mutable<U>>
    : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T

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

// ---- the records as everyone but their writer sees them (their schemas: `store/records.ts`) ------------

export type Account = DeepReadonly<AccountRecord>

/** What the ledger changes on an account (`Store.ledger`, domain/ledger.ts): its balance and totals. */
export type LedgerDraft = Draft<Pick<AccountRecord, 'balance' | 'totals'>>

/** A transaction: a union on `kind` (narrow with `tx.kind === ...`), its `data` and `status` the kind's. */
export type Transaction = DeepReadonly<TransactionRecordOf<TransactionKind>>
/** A transaction of the given kinds (`TransactionOf<'CASH_IN' | 'COB'>`). */
export type TransactionOf<K extends TransactionKind> = DeepReadonly<TransactionRecordOf<K>>

export const CHARGE_KINDS = ['CASH_IN', 'COB', 'PIX_IN', 'COBV'] as const
export const REFUND_KINDS = ['REFUND_IN', 'DEVOLUCAO'] as const
export const PAYOUT_KINDS = ['CASH_OUT', 'CASH_OUT_QRCODE', 'DICT_TRANSFER'] as const
export type ChargeKind = typeof CHARGE_KINDS[number]
export type RefundKind = typeof REFUND_KINDS[number]
export type PayoutKind = typeof PAYOUT_KINDS[number]

/** Whether a transaction is of one of the kinds (and, for the compiler, its `data` is theirs). */
export function isKind<K extends TransactionKind, T extends { readonly kind: TransactionKind }> (tx: T, kinds: readonly K[]): tx is Extract<T, { readonly kind: K }> {
  return (kinds as readonly TransactionKind[]).includes(tx.kind)
}

export type DirectoryEntry = Collections['directory']
/** A scenario armed for an account's next requests (for clients that cannot add headers). Owned by ScenarioService. */
export type ArmedScenario = Collections['armedScenarios']
export type WebhookRegistration = Collections['webhooks']
export type Delivery = Collections['deliveries']
export type MedRecord = Collections['meds']
/** API Pix's payload locations and the key that signs their payloads (docs/api-pix.md). */
export type PayloadLocation = Collections['locations']
export type SigningKey = Collections['signingKeys']
/** Pix Automático's records (docs/api-pix.md, Pix Automático): recurrences, their locations and confirmation requests, and how simulated payers behave. */
export type Recurrence = Collections['recurrences']
export type RecLocation = Collections['recLocations']
export type SolicRec = Collections['solicRecs']
export type PayerBehaviour = Collections['payerBehaviours']
/** API Pix's recurring charges of Pix Automático (docs/api-pix.md), with their attempts. */
export type CobR = Collections['cobrs']
export type Tentativa = CobR['tentativas'][number]
/**
 * A charge a txid names: a cob or a cobv (a transaction of kind COB or COBV) or a cobr. A txid names
 * one charge of its receiver, whatever its kind (docs/api-pix.md, "One txid, one charge").
 */
export type ChargeOfTxid = Transaction | CobR
/** A webhook of API Pix (per key: PUT /webhook/{chave}), apart from the gateway's registrations. */
export type ApiPixWebhook = Collections['apiPixWebhooks']
/** API Pix's batches of due charges (lotecobv), each request with its own status (docs/api-pix.md). */
export type CobVBatch = Collections['cobvBatches']
/** What a PSP's own API keeps of an account's settings (Efí's /v2/gn/config, docs/efi.md). */
export type PspSettings = Collections['pspSettings']
/** A report a PSP's own API was asked for (Efí's reconciliation report). */
export type PspReport = Collections['pspReports']
/** A split configuration of a PSP's own API, with its revisions (Efí's /v2/gn/split/config). */
export type PspSplitConfig = Collections['pspSplitConfigs']
/** A charge linked to a split configuration (Efí's /v2/gn/split/cob/:txid/vinculo). */
export type PspSplitLink = Collections['pspSplitLinks']

// ---- the document ---------------------------------------------------------------------------------

/** The keyed collections of the document, and the record each holds, read-only. */
export type Collections = { [C in Collection]: DeepReadonly<CollectionRecords[C]> }

/** The live state the store keeps in memory: the collections and the id sequences. */
export type State = { seq: Record<string, number> } & { [C in Collection]: Record<string, Collections[C]> }

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
  const state: Record<string, object> = { seq: {} }
  for (const collection of COLLECTIONS) state[collection] = {}
  return state as State
}
