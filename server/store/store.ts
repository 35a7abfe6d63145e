import { Low, Memory } from 'lowdb'
import { DataFile } from 'lowdb/node'
import { appendFile, readdir, readFile, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Account, DirectoryEntry, State, Transaction } from './state.js'
import { canonicalIdempotencyKey } from '../domain/ids.js'
import { emptyState } from './state.js'

/**
 * The one owner of the sandbox's state document. It keeps the lowdb document, the secondary
 * indexes rebuilt on load, and persistence.
 *
 * With a data file, the file is a base document plus an append-only journal beside it
 * (`FILE.journal-G`): `commit()` appends the records changed since the last commit, one JSON line
 * each, and resolves once they are written, so the cost of a commit follows the size of the change,
 * not of the store (rewriting the whole document on every commit made a cash-out take 240 ms at 10k
 * transactions). Concurrent commits share one append. When the journal outgrows the base, a
 * compaction writes the whole document (lowdb, through a temp file and a rename, so the base is never
 * half-written) under the next generation G+1 and deletes the older journal; appends go on to the new
 * journal meanwhile. Loading reads the base, then replays the journals of its generation and later,
 * each line a whole record, so replaying a line twice is harmless, and a torn last line (a kill
 * mid-append, never acknowledged) is ignored.
 *
 * Services call `changed(collection, id)` after changing a record in place; adding a record through
 * the store marks it already.
 */
export interface StoreOptions {
  /** Path of the JSON data file; in memory when absent. */
  file?: string
  /** Journal size (bytes) below which no compaction runs, whatever the size of the base. */
  compactionFloorBytes?: number
}

/** The keyed collections of the document, which the journal records record by record. */
export type Collection = 'accounts' | 'transactions' | 'directory' | 'armedScenarios' | 'webhooks' | 'deliveries' | 'meds'
const COLLECTIONS: readonly Collection[] = ['accounts', 'transactions', 'directory', 'armedScenarios', 'webhooks', 'deliveries', 'meds']

/** The base document on disk: the state plus the journal generation it already contains. */
type BaseDocument = State & { journalGeneration?: number }

export class Store {
  readonly persistent: boolean
  private readonly db: Low<State>
  private readonly file: string | undefined
  private readonly compactionFloorBytes: number
  private byClientId = new Map<string, Account>()
  private byFingerprint = new Map<string, Account>()
  private txByAccount = new Map<number, Transaction[]>()
  /**
   * Composite lookups are nested maps (owner, then the record's own string) rather than one map keyed by
   * a joined string: a joined key is one more string per record, about 100 bytes of heap each.
   */
  private txByExternalId = new Map<string, Map<string, Transaction>>()
  private txByEndToEndId = new Map<string, Transaction>()
  private txByIdempotencyKey = new Map<number, Map<string, Transaction>>()
  private txByRef = new Map<string, Transaction>()
  private writing: Promise<void> | null = null
  private queued: Promise<void> | null = null
  /** Ids changed since the last append, per collection. */
  private readonly dirty = new Map<Collection, Set<string>>(COLLECTIONS.map(c => [c, new Set<string>()]))
  /** Set when the whole document changed (load of a new file, reset, import, account removal). */
  private rewriteNeeded = false
  private generation = 0
  private journalBytes = 0
  private baseBytes = 0
  private compacting: Promise<void> | null = null

  constructor (opts: StoreOptions = {}) {
    this.persistent = Boolean(opts.file)
    this.file = opts.file
    this.compactionFloorBytes = opts.compactionFloorBytes ?? 32 * 2 ** 20
    const adapter = opts.file
      // Compact JSON: pretty-printing a large document costs more than the write itself.
      // An empty file (`touch state.json` before a first start) holds no state yet; anything else must be JSON.
      ? new DataFile<State>(opts.file, {
        parse: s => {
          this.baseBytes = s.length
          return (s.trim() === '' ? null : JSON.parse(s)) as State
        },
        stringify: s => {
          const text = JSON.stringify({ ...s, journalGeneration: this.generation })
          this.baseBytes = text.length
          return text
        },
      })
      : new Memory<State>()
    this.db = new Low<State>(adapter, emptyState())
  }

  get data (): State {
    return this.db.data
  }

  /** Reads the data file and its journals (if any); returns whether they held a state. */
  async load (): Promise<boolean> {
    // Low.read keeps the default document when the file does not exist yet; start from null so a first
    // start with --data is told apart from a reload (and seeds the fixtures).
    this.db.data = null as unknown as State
    await this.db.read()
    const base = this.db.data as BaseDocument | null
    const found = this.persistent && base !== null && base.schemaVersion === 1
    this.db.data = found ? { ...emptyState(), ...base } : emptyState()
    if (this.persistent) {
      const baseGeneration = found ? (base.journalGeneration ?? 0) : Infinity
      delete (this.db.data as BaseDocument).journalGeneration
      this.generation = found ? baseGeneration : 0
      for (const { generation, path } of await this.journals()) {
        if (generation < baseGeneration) {
          // Already in the base (a compaction ended before the old journal was deleted), or left by a
          // state this file no longer holds.
          await rm(path, { force: true })
          continue
        }
        const text = await readFile(path, 'utf8')
        this.replay(text, path)
        this.generation = generation
        this.journalBytes = text.length
      }
      // A first start writes the whole document on its first commit; so does a file without a base.
      this.rewriteNeeded = !found
    }
    this.reindex()
    return found
  }

  /** Replaces the whole state (snapshot import, reset) and rebuilds the indexes. */
  replace (state: State): void {
    this.db.data = { ...emptyState(), ...structuredClone(state) }
    this.rewriteNeeded = this.persistent
    this.reindex()
  }

  snapshot (): State {
    return structuredClone(this.db.data)
  }

  nextSeq (name: string): number {
    const seq = this.db.data.seq
    seq[name] = (seq[name] ?? 0) + 1
    return seq[name]
  }

  /**
   * Marks a record changed in place (or removed from its collection) so the next commit persists it.
   * Free in memory mode, so services call it unconditionally.
   */
  changed (collection: Collection, id: string | number): void {
    if (this.persistent) this.dirty.get(collection)!.add(String(id))
  }

  /** Persists every change made so far. Resolves at once in memory mode. */
  commit (): Promise<void> {
    if (!this.persistent) return Promise.resolve()
    if (this.queued) return this.queued
    if (!this.writing) return this.startWrite()
    // A write is under way with older data: queue exactly one more, shared by every caller until it starts.
    this.queued = this.writing.then(() => {
      this.queued = null
      return this.startWrite()
    })
    return this.queued
  }

  /** Resolves when every commit so far, and any compaction under way, is on disk. */
  async flush (): Promise<void> {
    await this.commit()
    await this.compacting
  }

  /**
   * At a graceful stop: everything on disk, folded into the base, so the data file alone holds the
   * whole state again (people copy it, commit it as a fixture, or read it) and the next start replays
   * nothing.
   */
  async close (): Promise<void> {
    await this.flush()
    if (this.persistent && this.journalBytes > 0) await this.compact()
  }

  private startWrite (): Promise<void> {
    const w = this.write().finally(() => {
      if (this.writing === w) this.writing = null
    })
    this.writing = w
    return w
  }

  private async write (): Promise<void> {
    if (this.rewriteNeeded) {
      // The change is the whole document: the commit is acknowledged once the new base is on disk.
      await this.compacting
      await this.compact()
      return
    }
    const text = this.takeChanges()
    if (text === '') return
    await appendFile(this.journalPath(this.generation), text)
    this.journalBytes += text.length
    if (!this.compacting && this.journalBytes > Math.max(this.compactionFloorBytes, this.baseBytes)) {
      // In the background: later commits append to the next journal while the base is written.
      this.compacting = this.compact().finally(() => { this.compacting = null })
    }
  }

  /** The journal lines of every record changed since the last call, and the sequences. */
  private takeChanges (): string {
    let text = ''
    for (const [collection, ids] of this.dirty) {
      if (ids.size === 0) continue
      const records = this.db.data[collection] as Record<string, unknown>
      for (const id of ids) text += JSON.stringify([collection, id, records[id] ?? null]) + '\n'
      ids.clear()
    }
    // The sequences change with almost every new record; a few bytes, so they go with every append.
    return text === '' ? '' : text + JSON.stringify(['seq', null, this.db.data.seq]) + '\n'
  }

  /**
   * Writes the whole document as the base of the next generation, then deletes the journals it
   * contains. The document is serialised synchronously, so it holds exactly the changes made so far;
   * later ones are marked and go to the new generation's journal.
   */
  private async compact (): Promise<void> {
    for (const ids of this.dirty.values()) ids.clear()
    this.rewriteNeeded = false
    const previous = this.generation
    this.generation += 1
    this.journalBytes = 0
    await this.db.write()
    for (const { generation, path } of await this.journals()) {
      if (generation <= previous) await rm(path, { force: true })
    }
  }

  private replay (text: string, path: string): void {
    const lines = text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] === '') continue
      let entry: [Collection | 'seq', string | null, unknown]
      try {
        entry = JSON.parse(lines[i])
      } catch (err) {
        // A kill in the middle of an append leaves a torn last line; that commit was never acknowledged.
        if (i === lines.length - 1) break
        throw new Error(`${path}: journal line ${i + 1} is not JSON (${(err as Error).message})`)
      }
      const [collection, id, value] = entry
      if (collection === 'seq') {
        this.db.data.seq = value as Record<string, number>
        continue
      }
      const records = this.db.data[collection] as Record<string, unknown> | undefined
      if (!records || id === null) throw new Error(`${path}: journal line ${i + 1} names no known record`)
      if (value === null) delete records[id]
      else records[id] = value
    }
  }

  private journalPath (generation: number): string {
    return `${this.file!}.journal-${generation}`
  }

  /** The journal files beside the data file, oldest generation first. */
  private async journals (): Promise<Array<{ generation: number, path: string }>> {
    const dir = dirname(this.file!)
    const prefix = `${basename(this.file!)}.journal-`
    const names = await readdir(dir).catch(() => [] as string[])
    return names
      .filter(n => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map(n => ({ generation: Number(n.slice(prefix.length)), path: join(dir, n) }))
      .sort((a, b) => a.generation - b.generation)
  }

  // ---- accounts -------------------------------------------------------------------------------

  account (id: number): Account | undefined {
    return this.db.data.accounts[id]
  }

  accounts (): Account[] {
    return Object.values(this.db.data.accounts)
  }

  accountByClientId (clientId: string): Account | undefined {
    return this.byClientId.get(clientId)
  }

  accountByFingerprint (fingerprint: string): Account | undefined {
    return this.byFingerprint.get(fingerprint)
  }

  addAccount (account: Account): void {
    this.db.data.accounts[account.id] = account
    this.changed('accounts', account.id)
    this.indexAccount(account)
  }

  linkCertificate (account: Account, fingerprint: string): void {
    if (!account.certificateFingerprints.includes(fingerprint)) account.certificateFingerprints.push(fingerprint)
    this.changed('accounts', account.id)
    this.byFingerprint.set(fingerprint, account)
  }

  /** Removes an account and everything that belongs to it. */
  removeAccount (id: number): void {
    const data = this.db.data
    delete data.accounts[id]
    for (const tx of this.txByAccount.get(id) ?? []) delete data.transactions[tx.id]
    for (const hook of this.removers) hook(id)
    // Removal touches several collections at once and is rare: the next commit writes the whole document.
    this.rewriteNeeded = this.persistent
    this.reindex()
  }

  private readonly removers: Array<(accountId: number) => void> = []

  /** Lets the owner of another collection drop an account's records when the account is removed. */
  onAccountRemoved (remove: (accountId: number) => void): void {
    this.removers.push(remove)
  }

  // ---- transactions ---------------------------------------------------------------------------

  transaction (id: string): Transaction | undefined {
    return ownRecord(this.db.data.transactions, id)
  }

  transactionsOf (accountId: number): readonly Transaction[] {
    return this.txByAccount.get(accountId) ?? []
  }

  /** externalId is unique per account within one family of operations (`scope`, e.g. "cash-out"). */
  transactionByExternalId (accountId: number, scope: string, externalId: string): Transaction | undefined {
    return this.txByExternalId.get(`${accountId}\u0000${scope}`)?.get(externalId)
  }

  transactionByEndToEndId (endToEndId: string): Transaction | undefined {
    return this.txByEndToEndId.get(endToEndId)
  }

  /** By the key's canonical form, whatever case it was given or stored in (a state written before keys were canonical). */
  transactionByIdempotencyKey (accountId: number, key: string): Transaction | undefined {
    return this.txByIdempotencyKey.get(accountId)?.get(canonicalIdempotencyKey(key))
  }

  addTransaction (tx: Transaction, externalIdScope?: string): void {
    this.db.data.transactions[tx.id] = tx
    this.changed('transactions', tx.id)
    this.indexTransaction(tx, externalIdScope)
  }

  /** Call after setting `endToEndId` on an existing transaction. */
  indexEndToEndId (tx: Transaction): void {
    if (tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
    this.changed('transactions', tx.id)
  }

  /**
   * Other lookups a capability needs (a cob by txid, a charge by its QR location, a refund by rtrId):
   * the transaction lists its refs in `data.refs`, and the store indexes them on add and on load.
   */
  transactionByRef (ref: string): Transaction | undefined {
    return this.txByRef.get(ref)
  }

  addRef (tx: Transaction, ref: string): void {
    const refs = (tx.data.refs ??= []) as string[]
    if (!refs.includes(ref)) refs.push(ref)
    this.txByRef.set(ref, tx)
    this.changed('transactions', tx.id)
  }

  // ---- directory ------------------------------------------------------------------------------

  directoryEntry (key: string): DirectoryEntry | undefined {
    return ownRecord(this.db.data.directory, key)
  }

  // ---- indexes --------------------------------------------------------------------------------

  private reindex (): void {
    this.byClientId.clear()
    this.byFingerprint.clear()
    this.txByAccount.clear()
    this.txByExternalId.clear()
    this.txByEndToEndId.clear()
    this.txByIdempotencyKey.clear()
    this.txByRef.clear()
    for (const account of Object.values(this.db.data.accounts)) this.indexAccount(account)
    for (const tx of Object.values(this.db.data.transactions)) this.indexTransaction(tx, tx.data.externalIdScope as string | undefined)
  }

  private indexAccount (account: Account): void {
    this.byClientId.set(account.clientId, account)
    for (const fp of account.certificateFingerprints) this.byFingerprint.set(fp, account)
  }

  private indexTransaction (tx: Transaction, externalIdScope?: string): void {
    let list = this.txByAccount.get(tx.accountId)
    if (!list) this.txByAccount.set(tx.accountId, list = [])
    list.push(tx)
    if (tx.externalId && externalIdScope) {
      tx.data.externalIdScope = externalIdScope
      inner(this.txByExternalId, `${tx.accountId}\u0000${externalIdScope}`).set(tx.externalId, tx)
    }
    if (tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
    if (tx.idempotencyKey) inner(this.txByIdempotencyKey, tx.accountId).set(canonicalIdempotencyKey(tx.idempotencyKey), tx)
    for (const ref of (tx.data.refs as string[] | undefined) ?? []) this.txByRef.set(ref, tx)
  }
}

/**
 * A record by an id from a request: only the collection's own keys, so `constructor` or `__proto__` in
 * a URL is an unknown id (404), not Object.prototype's member (a 500 further on).
 */
export function ownRecord<V> (records: Record<string, V>, id: string): V | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined
}

function inner<K, V> (outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = outer.get(key)
  if (!map) outer.set(key, map = new Map())
  return map
}
