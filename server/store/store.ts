import { Low } from 'lowdb'
import { BaseFile, type DataFile } from './data-file.js'
import { keyFieldOf } from './derived.js'
import { DurableLog, type Companions, type StoreHealth } from './durable-log.js'
import { NodeFs, type StoreFs } from './fs.js'
import { RemovedRecords, type NamedRecords } from './lifecycle.js'
import { openDataFile, type OpenResult } from './opening.js'
import { StoreReads } from './reads.js'
import { ownRecord } from './repository.js'
import {
  COLLECTION_RECORDS, COLLECTIONS, STATE_FORMAT, STATE_FORMAT_VERSION, emptyState,
  type Account, type ClockRecord, type Collection, type Collections, type DeepReadonly, type Draft,
  type LedgerDraft, type Patch, type State, type Transaction,
} from './state.js'
import { DEEP, LEDGER, Restored, SEQ, SHALLOW, Units, putBack, type Depth, type Entry } from './units.js'

export type { ClockPort, Companions, StoreHealth } from './durable-log.js'
export { StoreWriteError } from './durable-log.js'
export type { OpenResult } from './opening.js'
export { mergeBySeq, ownRecord } from './repository.js'
export type { Restored } from './units.js'

/**
 * The one owner of the sandbox's state, and its only write path. Its parts: the units and their
 * before-images (`units.ts`), the records and their indexes (`repository.ts`, read through `reads.ts`), the durable log of a
 * data file (`durable-log.ts`) and its opening (`opening.ts`).
 *
 * **Reading.** `data` and every lookup hand out records typed read-only all the way down.
 *
 * **Writing.** A change happens inside `transact(fn)`, a synchronous unit, through `add`, `put`,
 * `update(collection, id, fn)` (whose callback gets the record as a writable `Draft`), `remove`,
 * `nextSeq`, `replace` and the account and transaction helpers. The first time a unit touches a
 * record, the store keeps a before-image of it; if the unit throws, every record it touched is put
 * back as it was, so an operation applies whole or not at all (ledger, records, sequences). A write
 * outside a unit throws: there is no way to change state that the store does not see.
 *
 * **Rolling back** touches only what the failed unit (or the failed write) touched: its records and
 * sequences are put back in place, the index entries of those records follow them, and whoever keeps
 * state derived from records is told which records came back (`onRestored`), so it mends that and
 * nothing else. A rolled-back replacement of the whole state (a reset or an import) is the exception:
 * everything derived is rebuilt then.
 *
 * **Persisting** (`--data FILE`): `commit()` resolves once every change made before it is on disk;
 * a failed write rolls back every change not yet durable (see `durable-log.ts`).
 */
export interface StoreOptions {
  /** Path of the JSON data file; in memory when absent. */
  file?: string
  /** Journal size (bytes) below which no compaction runs, whatever the size of the base. */
  compactionFloorBytes?: number
  /** The file system (tests inject one that fails). */
  fs?: StoreFs
  /** While degraded, the first retry of a write after this many ms (then doubling up to 30 s). */
  retryMs?: number
  /** A service failed to follow a rollback (a bug: logged, never thrown into a write's failure). */
  onError?: (err: unknown) => void
}

const RESOLVED: Promise<void> = Promise.resolve()

export class Store extends StoreReads {
  readonly persistent: boolean
  private readonly units = new Units()
  /** With a data file: the file, the file system, lowdb's handle on the base document. */
  private readonly files: DataFile | null
  private readonly log: DurableLog | null
  private readonly onError: (err: unknown) => void
  private readonly undo = (entries: Entry[]): void => this.restore(entries)
  private readonly restoredListeners: Array<(restored: Restored) => void> = []
  private readonly removers: Array<(accountId: number, removed: NamedRecords) => void> = []
  private clock: Companions['clock'] | null = null

  constructor (opts: StoreOptions = {}) {
    super()
    this.persistent = Boolean(opts.file)
    this.onError = opts.onError ?? (err => process.emitWarning(`store: following a rollback failed: ${String(err)}`))
    const fs = opts.fs ?? new NodeFs()
    this.files = opts.file ? { file: opts.file, fs, base: new Low<string>(new BaseFile(fs, opts.file), '') } : null
    this.log = this.files
      ? new DurableLog({
        ...this.files,
        repository: this.repo,
        compactionFloorBytes: opts.compactionFloorBytes ?? 32 * 2 ** 20,
        retryMs: opts.retryMs ?? 1000,
        rollBack: this.undo,
      })
      : null
  }

  /**
   * Reads the data file and its journals (`opening.ts`). A missing or empty file is a first start;
   * anything that is not a state this sandbox wrote stops the start with a StartupError.
   */
  async open (companions: Companions = {}): Promise<OpenResult> {
    this.clock = companions.clock ?? null
    if (!this.files || !this.log) return { found: false, migrated: false }
    const opened = await openDataFile(this.files)
    this.log.resume(opened, companions)
    if (opened.state) {
      this.repo.state = opened.state
      this.repo.reindex()
    }
    return opened.result
  }

  // ---- units ---------------------------------------------------------------------------------

  /**
   * Runs `fn` as one unit: if it throws, everything it changed is put back and the error goes on.
   * `fn` must be synchronous (an await would let another request see, and commit, half of it), so an
   * async function is refused. A unit inside a unit is a savepoint: the inner one can fail alone.
   */
  transact<T> (fn: () => T): T {
    return this.units.run(fn, this.undo)
  }

  /**
   * A unit outside a request (a scheduled job, the result of a webhook attempt): applied at once and
   * written in the background. A failed write rolls it back like any other; nobody waits for an answer.
   */
  unit<T> (fn: () => T): T {
    const result = this.transact(fn)
    if (this.log) this.commit().catch(() => {})
    return result
  }

  /** Whether a change is not on disk yet (false in memory mode, where there is no disk). */
  hasUndurableChanges (): boolean {
    return this.log !== null && this.log.hasUndurableChanges()
  }

  /**
   * Called after a rollback put records back, with what it put back: whoever keeps state derived
   * from those records mends it. Each listener runs in a unit of its own (it may repair a record).
   */
  onRestored (listener: (restored: Restored) => void): void {
    this.restoredListeners.push(listener)
  }

  /** Records what `record` is before its first change in the current unit and in the current write period. */
  private touch (record: object, collection: Entry['collection'], id: string, exists: boolean, depth: Depth = DEEP, image?: unknown): void {
    const entry = this.units.touch(record, collection, id, exists, depth, image)
    if (this.log) this.log.note(record, entry, collection, id, exists, depth, image)
  }

  /** Puts records back from before-images, newest first; their index entries and derived state follow. */
  private restore (entries: Entry[]): void {
    const restored = new Restored(entries, () => this.repo.state)
    const putAllBack = (): void => { for (const e of entries) this.repo.state = putBack(this.repo.state, e) }
    if (restored.whole) {
      putAllBack()
      this.repo.reindex()
    } else {
      this.repo.follow(restored, putAllBack)
    }
    for (const listener of this.restoredListeners) {
      try {
        this.transact(() => listener(restored))
      } catch (err) {
        this.onError(err)
      }
    }
  }

  // ---- writing records -----------------------------------------------------------------------

  /** Adds a record under its id; an id already taken is a bug (it would overwrite a record). */
  add<C extends Exclude<Collection, 'accounts' | 'transactions'>> (collection: C, record: Collections[C]): Collections[C] {
    const id = keyOf(collection, record)
    if (ownRecord(this.repo.state[collection] as Record<string, unknown>, id) !== undefined) throw new Error(`store: ${collection}/${id} exists already`)
    return this.put(collection, record)
  }

  /** Adds or replaces a record under its id. */
  put<C extends Exclude<Collection, 'accounts' | 'transactions'>> (collection: C, record: Collections[C]): Collections[C] {
    const id = keyOf(collection, record)
    const records = this.repo.state[collection] as Record<string, object>
    const previous = ownRecord(records, id)
    if (previous !== undefined) this.touch(previous, collection, id, true, SHALLOW)
    this.touch(record, collection, id, false)
    records[id] = record
    if (collection === 'cobrs') {
      if (previous !== undefined) this.repo.indexCobR(previous as Collections['cobrs'], false)
      this.repo.indexCobR(record as Collections['cobrs'], true)
    }
    return record
  }

  /**
   * Changes one record: `fn` gets it writable (a Draft) and returns whatever the caller wants back.
   * Throws when the record does not exist.
   */
  update<C extends Collection, R> (collection: C, id: string | number, fn: (draft: Draft<Collections[C]>) => R): R {
    return this.change(collection, id, DEEP, fn as (draft: object) => R)
  }

  /**
   * Changes top-level fields of one record: `fn` gets it with those writable and everything nested
   * read-only (a new array or object replaces the old one). Cheaper to roll back than `update`, so it
   * is what the hot paths (a settlement, a delivery attempt) use.
   */
  patch<C extends Collection, R> (collection: C, id: string | number, fn: (draft: Patch<Collections[C]>) => R): R {
    return this.change(collection, id, SHALLOW, fn as (draft: object) => R)
  }

  /** Moves money on an account: `fn` gets its balance and totals, as the ledger functions take them. */
  ledger<R> (accountId: number, fn: (account: LedgerDraft) => R): R {
    return this.change('accounts', accountId, LEDGER, fn as (draft: object) => R)
  }

  private change<R> (collection: Collection, id: string | number, depth: Depth, fn: (draft: object) => R): R {
    const key = String(id)
    const record = ownRecord(this.repo.state[collection] as Record<string, object>, key)
    if (record === undefined) throw new Error(`store: ${collection}/${key} does not exist`)
    this.touch(record, collection, key, true, depth)
    if (collection !== 'transactions') return fn(record)
    const tx = record as Transaction
    const endToEndId = tx.endToEndId
    const result = fn(record)
    if (tx.endToEndId !== endToEndId) this.repo.indexEndToEnd(tx)
    return result
  }

  /** Removes a record; false when there was none. Accounts go with `removeAccount`, transactions with their account. */
  remove (collection: Exclude<Collection, 'accounts' | 'transactions'>, id: string | number): boolean {
    const key = String(id)
    const records = this.repo.state[collection] as Record<string, object>
    const record = ownRecord(records, key)
    if (record === undefined) return false
    // Shallow: a removed record is never changed again, so its nested objects stay as they are.
    this.touch(record, collection, key, true, SHALLOW)
    delete records[key]
    if (collection === 'cobrs') this.repo.indexCobR(record as Collections['cobrs'], false)
    return true
  }

  /** The next number of a sequence (ids of accounts, transactions, MEDs...). */
  nextSeq (name: string): number {
    const seq = this.repo.state.seq
    this.touch(seq, SEQ, '', true, SHALLOW)
    seq[name] = (seq[name] ?? 0) + 1
    return seq[name]
  }

  /** What `nextSeq(name)` would return, without taking it. */
  peekSeq (name: string): number {
    return (this.repo.state.seq[name] ?? 0) + 1
  }

  /** Makes sure the sequence hands out nothing at or below `value` (ids the fixtures use). */
  raiseSeq (name: string, value: number): void {
    const seq = this.repo.state.seq
    if ((seq[name] ?? 0) >= value) return
    this.touch(seq, SEQ, '', true, SHALLOW)
    seq[name] = value
  }

  /** Replaces the whole state (reset, snapshot import); the next write rewrites the base. */
  replace (state: DeepReadonly<State>): void {
    // The replaced state itself is the image: nothing changes it once it is no longer live.
    this.touch({}, null, '', true, DEEP, this.repo.state)
    // A copy, of the collections only: the caller keeps its document, and stray keys stay out.
    const next = emptyState()
    next.seq = { ...state.seq }
    for (const collection of COLLECTIONS) if (state[collection]) (next as Record<string, unknown>)[collection] = structuredClone(state[collection])
    this.repo.state = next
    this.log?.rewrite()
    this.repo.reindex()
  }

  // ---- accounts and transactions --------------------------------------------------------------

  addAccount (account: Account): Account {
    const key = String(account.id)
    const accounts = this.repo.state.accounts
    if (ownRecord(accounts, key) !== undefined) throw new Error(`store: accounts/${key} exists already`)
    this.touch(account, 'accounts', key, false)
    accounts[key] = account
    this.repo.indexAccount(account)
    return account
  }

  linkCertificate (accountId: number, fingerprint: string): void {
    this.update('accounts', accountId, a => {
      if (!a.certificateFingerprints.includes(fingerprint)) a.certificateFingerprints.push(fingerprint)
    })
    this.repo.indexFingerprint(fingerprint, this.repo.state.accounts[accountId])
  }

  /**
   * Removes an account and everything that belongs to it: its transactions and the records of every
   * collection whose records name their account (`owned` in COLLECTION_RECORDS). Then whoever keeps
   * state derived from records is told which records went (`onAccountRemoved`).
   */
  removeAccount (id: number): void {
    const key = String(id)
    const state = this.repo.state
    const account = state.accounts[key]
    if (!account) return
    this.touch(account, 'accounts', key, true, SHALLOW)
    delete state.accounts[key]
    const removed = new RemovedRecords()
    for (const tx of this.repo.transactionsOf(id)) {
      this.touch(tx, 'transactions', tx.id, true, SHALLOW)
      delete state.transactions[tx.id]
      removed.add('transactions', tx)
    }
    for (const collection of OWNED) {
      for (const record of Object.values(state[collection]) as Array<{ accountId: number }>) {
        if (record.accountId !== id) continue
        this.remove(collection, keyOf(collection, record))
        removed.add(collection, record)
      }
    }
    for (const listener of this.removers) listener(id, removed)
    // Several collections at once, and rare: the next write rewrites the base rather than journal each.
    this.log?.rewrite()
    this.repo.unindexAccount(account)
  }

  /** Tells `listener` which records went with an account (what it keeps about them, it forgets). */
  onAccountRemoved (listener: (accountId: number, removed: NamedRecords) => void): void {
    this.removers.push(listener)
  }

  /**
   * Adds a transaction; with `externalIdScope` its externalId is looked up within that scope. `refs`
   * are the other names it is found by (see `transactionByRef`).
   */
  addTransaction<T extends Transaction> (tx: T, externalIdScope?: string, refs?: readonly string[]): T {
    const transactions = this.repo.state.transactions
    if (ownRecord(transactions, tx.id) !== undefined) throw new Error(`store: transactions/${tx.id} exists already`)
    const record = tx as Draft<Transaction>
    if (externalIdScope !== undefined && tx.externalId) record.data.externalIdScope = externalIdScope
    if (refs && refs.length > 0) record.data.refs = [...refs]
    this.touch(tx, 'transactions', tx.id, false)
    transactions[tx.id] = tx
    this.repo.indexTransaction(tx)
    return tx
  }

  addRef (txId: string, ref: string): void {
    this.update('transactions', txId, tx => {
      const refs = tx.data.refs ?? []
      if (!refs.includes(ref)) tx.data.refs = refs.concat(ref)
    })
    this.repo.indexRef(ref, this.repo.state.transactions[txId])
  }

  /** Its expiring refs (`data.refsExpiring`) name it no longer: gone from the record and from the index. */
  dropExpiringRefs (txId: string): void {
    const dropped = this.update('transactions', txId, tx => {
      const expiring = tx.data.refsExpiring?.refs ?? []
      tx.data.refs = (tx.data.refs ?? []).filter(ref => !expiring.includes(ref))
      delete tx.data.refsExpiring
      return [...expiring]
    })
    for (const ref of dropped) this.repo.unindexRef(ref, txId)
  }

  /**
   * The whole state as one document (a snapshot export), detached from the live records. Without the
   * random stream: an export describes the state, and exporting it again after any request that drew
   * a number (a token's id) gives the same document.
   */
  snapshot (): DeepReadonly<State> & { format: typeof STATE_FORMAT, formatVersion: typeof STATE_FORMAT_VERSION, clock?: ClockRecord } {
    const clock = this.clock?.record()
    return { format: STATE_FORMAT, formatVersion: STATE_FORMAT_VERSION, ...(clock ? { clock } : {}), ...structuredClone(this.repo.state) }
  }

  // ---- committing -----------------------------------------------------------------------------

  /** The sandbox clock moved (set, advance, freeze, resume): the next write records it. */
  clockChanged (): void {
    this.log?.clockChanged()
  }

  /**
   * Resolves once every change made before the call is on disk; rejects if the write failed (and the
   * changes were rolled back). Resolves at once in memory mode, or when there is nothing new.
   */
  commit (): Promise<void> {
    return this.log ? this.log.commit() : RESOLVED
  }

  /** Resolves once every change made so far is on disk (what a webhook attempt waits for before it goes out). */
  whenDurable (): Promise<void> {
    return this.commit()
  }

  /** Resolves when every commit so far, and any compaction under way, is on disk. */
  async flush (): Promise<void> {
    await this.log?.flush()
  }

  /**
   * At a graceful stop: everything on disk, folded into the base, so the data file alone holds the
   * whole state again (people copy it, commit it as a fixture, or read it) and the next start replays
   * nothing.
   */
  async close (): Promise<void> {
    await this.log?.close()
  }

  /** ok, or degraded with the reason (a write failed, and none has succeeded since). */
  health (): StoreHealth {
    return this.log ? this.log.health() : OK
  }

  /** Tells `listener` when the store becomes degraded or ok again. */
  onHealthChange (listener: (health: StoreHealth) => void): void {
    this.log?.onHealthChange(listener)
  }
}

const OK: StoreHealth = { status: 'ok' }

/** A record's key in its collection: the field COLLECTION_RECORDS names (`key`), else its `id`. */
function keyOf (collection: Collection, record: unknown): string {
  return String((record as Record<string, unknown>)[keyFieldOf(collection)])
}

/** The collections besides transactions whose records name their account, and go with it. */
const OWNED = COLLECTIONS.filter((c): c is Exclude<Collection, 'accounts' | 'transactions'> =>
  c !== 'transactions' && c !== 'accounts' && (COLLECTION_RECORDS[c] as { owned?: boolean }).owned === true)
