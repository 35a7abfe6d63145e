import { Type, type Static, type TSchema, type TUnion } from '@sinclair/typebox'
import { AccountSchema } from './records/accounts.js'
import { CobVBatchSchema } from './records/batches.js'
import { CobRSchema } from './records/cobrs.js'
import { DirectoryEntrySchema } from './records/directory.js'
import { PayloadLocationSchema, SigningKeySchema } from './records/locations.js'
import { MedSchema } from './records/med.js'
import { PspReportSchema, PspSettingsSchema, PspSplitConfigSchema, PspSplitLinkSchema } from './records/psp-settings.js'
import { PayerBehaviourSchema, RecLocationSchema, RecurrenceSchema, SolicRecSchema } from './records/recurrences.js'
import { ArmedScenarioSchema } from './records/scenarios.js'
import { Instant } from './records/schema.js'
import { TRANSACTION_KINDS, TRANSACTION_SCHEMAS, type TransactionKind, type TransactionRecord } from './records/transactions.js'
import { ApiPixWebhookSchema, DeliverySchema, WebhookRegistrationSchema } from './records/webhooks.js'

/**
 * Every record of the sandbox's state, defined once: a TypeBox schema per record, from which its type
 * derives (`Static`). The compiler reads the types; `store/document.ts` validates a loaded data file or
 * an imported snapshot against the very same schemas, so what the code assumes of a record is what a
 * document must hold (money as safe integers within the ledger's bounds, every required field, every
 * enumeration). The types here are writable, as a record is while it is built; everyone else sees them
 * read-only through `store/state.ts`, which re-exports this file.
 *
 * The schemas live by domain in `store/records/` (accounts, transactions and their data, the key
 * directory, armed scenarios, webhooks and deliveries, MED, payload locations, Pix Automático, recurring
 * charges, batches of due charges), on the building blocks of `records/schema.ts`; this file re-exports
 * them and lists the collections of the document (`COLLECTION_RECORDS`), the one list of them.
 *
 * A constraint TypeBox cannot express stays in `document.ts`, next to where it is checked: a collection
 * key that is its record's id, the owner of every record, unique client ids, the sequences.
 */

export { DATE_FORMAT, INSTANT_FORMAT } from './records/schema.js'
export * from './records/accounts.js'
export * from './records/transactions.js'
export * from './records/transaction-data.js'
export * from './records/directory.js'
export * from './records/scenarios.js'
export * from './records/webhooks.js'
export * from './records/med.js'
export * from './records/locations.js'
export * from './records/recurrences.js'
export * from './records/cobrs.js'
export * from './records/batches.js'
export * from './records/psp-settings.js'

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
  pspSettings: collection(PspSettingsSchema, { key: 'key', owned: true }),
  pspReports: collection(PspReportSchema, { owned: true }),
  pspSplitConfigs: collection(PspSplitConfigSchema, { key: 'key', owned: true }),
  pspSplitLinks: collection(PspSplitLinkSchema, { key: 'key', owned: true }),
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
