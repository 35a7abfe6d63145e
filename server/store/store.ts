import { Low, Memory } from 'lowdb'
import { DataFile } from 'lowdb/node'
import type { Account, DirectoryEntry, State, Transaction } from './state.js'
import { emptyState } from './state.js'

/**
 * The one owner of the sandbox's state document. It keeps the lowdb document, the secondary
 * indexes rebuilt on load, and persistence: with a data file, `commit()` resolves once every change
 * made so far is on disk, and concurrent commits share one write (steno writes a temp file and
 * renames it, so the file is never half-written).
 */
export interface StoreOptions {
  /** Path of the JSON data file; in memory when absent. */
  file?: string
}

export class Store {
  readonly persistent: boolean
  private readonly db: Low<State>
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

  constructor (opts: StoreOptions = {}) {
    this.persistent = Boolean(opts.file)
    const adapter = opts.file
      // Compact JSON: pretty-printing a large document costs more than the write itself.
      // An empty file (`touch state.json` before a first start) holds no state yet; anything else must be JSON.
      ? new DataFile<State>(opts.file, { parse: s => (s.trim() === '' ? null : JSON.parse(s)) as State, stringify: s => JSON.stringify(s) })
      : new Memory<State>()
    this.db = new Low<State>(adapter, emptyState())
  }

  get data (): State {
    return this.db.data
  }

  /** Reads the data file (if any); returns whether it held a state. */
  async load (): Promise<boolean> {
    // Low.read keeps the default document when the file does not exist yet; start from null so a first
    // start with --data is told apart from a reload (and seeds the fixtures).
    this.db.data = null as unknown as State
    await this.db.read()
    const found = this.persistent && this.db.data !== null && this.db.data.schemaVersion === 1
    if (!found) this.db.data = emptyState()
    this.db.data = { ...emptyState(), ...this.db.data }
    this.reindex()
    return found
  }

  /** Replaces the whole state (snapshot import, reset) and rebuilds the indexes. */
  replace (state: State): void {
    this.db.data = { ...emptyState(), ...structuredClone(state) }
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

  private startWrite (): Promise<void> {
    const w = this.db.write().finally(() => {
      if (this.writing === w) this.writing = null
    })
    this.writing = w
    return w
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
    this.indexAccount(account)
  }

  linkCertificate (account: Account, fingerprint: string): void {
    if (!account.certificateFingerprints.includes(fingerprint)) account.certificateFingerprints.push(fingerprint)
    this.byFingerprint.set(fingerprint, account)
  }

  /** Removes an account and everything that belongs to it. */
  removeAccount (id: number): void {
    const data = this.db.data
    delete data.accounts[id]
    for (const tx of this.txByAccount.get(id) ?? []) delete data.transactions[tx.id]
    for (const hook of this.removers) hook(id)
    this.reindex()
  }

  private readonly removers: Array<(accountId: number) => void> = []

  /** Lets the owner of another collection drop an account's records when the account is removed. */
  onAccountRemoved (remove: (accountId: number) => void): void {
    this.removers.push(remove)
  }

  // ---- transactions ---------------------------------------------------------------------------

  transaction (id: string): Transaction | undefined {
    return this.db.data.transactions[id]
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

  transactionByIdempotencyKey (accountId: number, key: string): Transaction | undefined {
    return this.txByIdempotencyKey.get(accountId)?.get(key)
  }

  addTransaction (tx: Transaction, externalIdScope?: string): void {
    this.db.data.transactions[tx.id] = tx
    this.indexTransaction(tx, externalIdScope)
  }

  /** Call after setting `endToEndId` on an existing transaction. */
  indexEndToEndId (tx: Transaction): void {
    if (tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
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
  }

  // ---- directory ------------------------------------------------------------------------------

  directoryEntry (key: string): DirectoryEntry | undefined {
    return this.db.data.directory[key]
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
    if (tx.idempotencyKey) inner(this.txByIdempotencyKey, tx.accountId).set(tx.idempotencyKey, tx)
    for (const ref of (tx.data.refs as string[] | undefined) ?? []) this.txByRef.set(ref, tx)
  }
}

function inner<K, V> (outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = outer.get(key)
  if (!map) outer.set(key, map = new Map())
  return map
}
