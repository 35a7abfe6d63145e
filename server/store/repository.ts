import { canonicalIdempotencyKey } from '../domain/ids.js'
import { emptyState, type Account, type ChargeOfTxid, type CobR, type DirectoryEntry, type State, type Transaction } from './state.js'
import type { Restored } from './units.js'

/** A record of a collection by id: only its own keys, never one inherited (`constructor`, `__proto__`). */
export function ownRecord<V> (records: Readonly<Record<string, V>>, id: string): V | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined
}

export function inner<K, V> (outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = outer.get(key)
  if (!map) outer.set(key, map = new Map())
  return map
}

/** A list in creation order with `back` (records a rollback put back) merged in, each at its place by `seq`. */
export function mergeBySeq<T extends { readonly seq: number }> (list: readonly T[], back: T[]): T[] {
  back.sort((a, b) => a.seq - b.seq)
  const merged: T[] = []
  let i = 0
  for (const record of list) {
    while (i < back.length && back[i].seq < record.seq) merged.push(back[i++])
    merged.push(record)
  }
  while (i < back.length) merged.push(back[i++])
  return merged
}

/** Sets `key` to `value`, or takes it away if it still names `value` (another record may have taken the key since). */
function keep<K, V> (map: Map<K, V>, key: K, value: V, add: boolean): void {
  if (add) map.set(key, value)
  else if (map.get(key) === value) map.delete(key)
}

/**
 * The live state and the lookups over it: accounts by client id and certificate, transactions by
 * account, externalId, endToEndId, idempotency key and ref, and charges (cob, cobv, cobr) by txid. The store writes the state and tells the
 * repository what it added, changed a key of, or removed; after a rollback, the entries of the
 * records it put back follow them (`follow`), and only those.
 */
export class Repository {
  state: State = emptyState()

  private readonly byClientId = new Map<string, Account>()
  /** Accounts by the access token of their Mercado Pago credentials. */
  private readonly byAccessToken = new Map<string, Account>()
  private readonly byFingerprint = new Map<string, Account>()
  private readonly txByAccount = new Map<number, Transaction[]>()
  /**
   * Composite lookups are nested maps (owner, then the record's own string) rather than one map keyed by
   * a joined string: a joined key is one more string per record, about 100 bytes of heap each.
   */
  private readonly txByExternalId = new Map<string, Map<string, Transaction>>()
  private readonly txByEndToEndId = new Map<string, Transaction>()
  private readonly txByIdempotencyKey = new Map<number, Map<string, Transaction>>()
  private readonly txByRef = new Map<string, Transaction>()
  /** Each account's charges by txid, whatever their kind: cob and cobv transactions, and cobrs. */
  private readonly chargeByTxid = new Map<number, Map<string, ChargeOfTxid>>()

  // ---- reading ----------------------------------------------------------------------------------

  account (id: number): Account | undefined {
    return this.state.accounts[id]
  }

  accounts (): Account[] {
    return Object.values(this.state.accounts)
  }

  accountByClientId (clientId: string): Account | undefined {
    return this.byClientId.get(clientId)
  }

  accountByAccessToken (token: string): Account | undefined {
    return this.byAccessToken.get(token)
  }

  accountByFingerprint (fingerprint: string): Account | undefined {
    return this.byFingerprint.get(fingerprint)
  }

  transaction (id: string): Transaction | undefined {
    return ownRecord(this.state.transactions, id)
  }

  transactionsOf (accountId: number): readonly Transaction[] {
    return this.txByAccount.get(accountId) ?? []
  }

  transactionByExternalId (accountId: number, scope: string, externalId: string): Transaction | undefined {
    return this.txByExternalId.get(`${accountId}\u0000${scope}`)?.get(externalId)
  }

  transactionByEndToEndId (endToEndId: string): Transaction | undefined {
    return this.txByEndToEndId.get(endToEndId)
  }

  transactionByIdempotencyKey (accountId: number, key: string): Transaction | undefined {
    return this.txByIdempotencyKey.get(accountId)?.get(canonicalIdempotencyKey(key))
  }

  transactionByRef (ref: string): Transaction | undefined {
    return this.txByRef.get(ref)
  }

  chargeOfTxid (accountId: number, txid: string): ChargeOfTxid | undefined {
    return this.chargeByTxid.get(accountId)?.get(txid)
  }

  directoryEntry (key: string): DirectoryEntry | undefined {
    return ownRecord(this.state.directory, key)
  }

  // ---- keeping the indexes ----------------------------------------------------------------------

  /** Every index anew from the state (a load, a replaced state). */
  reindex (): void {
    this.byClientId.clear()
    this.byAccessToken.clear()
    this.byFingerprint.clear()
    this.txByAccount.clear()
    this.txByExternalId.clear()
    this.txByEndToEndId.clear()
    this.txByIdempotencyKey.clear()
    this.txByRef.clear()
    this.chargeByTxid.clear()
    for (const account of Object.values(this.state.accounts)) this.accountKeys(account, true)
    for (const tx of Object.values(this.state.transactions)) this.indexTransaction(tx)
    for (const cobr of Object.values(this.state.cobrs)) this.cobrKeys(cobr, true)
  }

  indexAccount (account: Account): void {
    this.accountKeys(account, true)
  }

  indexFingerprint (fingerprint: string, account: Account): void {
    this.byFingerprint.set(fingerprint, account)
  }

  indexTransaction (tx: Transaction): void {
    let list = this.txByAccount.get(tx.accountId)
    if (!list) this.txByAccount.set(tx.accountId, list = [])
    list.push(tx)
    this.transactionKeys(tx, true)
  }

  indexEndToEnd (tx: Transaction): void {
    if (tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
  }

  indexRef (ref: string, tx: Transaction): void {
    this.txByRef.set(ref, tx)
  }

  /** The ref names the transaction `txId` no longer (an expiring ref, `Store.dropExpiringRefs`). */
  unindexRef (ref: string, txId: string): void {
    if (this.txByRef.get(ref)?.id === txId) this.txByRef.delete(ref)
  }

  /** A cobr was added (or replaced) or removed: its txid names it, or no longer does. */
  indexCobR (cobr: CobR, add: boolean): void {
    this.cobrKeys(cobr, add)
  }

  /** An account and its transactions left the state (`removeAccount`): so do their entries. */
  unindexAccount (account: Account): void {
    this.accountKeys(account, false)
    for (const tx of this.txByAccount.get(account.id) ?? []) this.transactionKeys(tx, false)
    this.txByAccount.delete(account.id)
    this.chargeByTxid.delete(account.id)
  }

  /**
   * A rollback: `putBack` restores the records `restored` names, and their entries follow them. The
   * entries of what the failed change left are taken away first, then those of the records as they
   * are again are made; an account's list of transactions keeps its order (a transaction that comes
   * back goes back to its place by `seq`). Nothing else is looked at.
   */
  follow (restored: Restored, putBack: () => void): void {
    const accounts = restored.of('accounts')
    const txs = restored.of('transactions')
    const live = (tx: Transaction) => restored.isInState('transactions', tx)
    for (const account of accounts) if (restored.isInState('accounts', account)) this.accountKeys(account, false)
    const listedUnder = new Map<Transaction, number>()
    for (const tx of txs) {
      if (!live(tx)) continue
      this.transactionKeys(tx, false)
      listedUnder.set(tx, tx.accountId)
    }
    putBack()
    for (const account of accounts) if (restored.isInState('accounts', account)) this.accountKeys(account, true)
    // A cobr's account and txid never change: its entry follows whether it is in the state again.
    for (const cobr of restored.of('cobrs')) this.cobrKeys(cobr, restored.isInState('cobrs', cobr))
    const back = new Map<number, Transaction[]>()
    for (const tx of txs) {
      const before = listedUnder.get(tx)
      const after = live(tx) ? tx.accountId : undefined
      if (before !== undefined && before !== after) this.unlist(before, tx)
      if (after === undefined) continue
      if (before !== after) {
        const list = back.get(after)
        if (list) list.push(tx)
        else back.set(after, [tx])
      }
      this.transactionKeys(tx, true)
    }
    for (const [accountId, list] of back) this.relist(accountId, list)
  }

  private accountKeys (account: Account, add: boolean): void {
    keep(this.byClientId, account.clientId, account, add)
    if (account.mercadoPago !== undefined) keep(this.byAccessToken, account.mercadoPago.accessToken, account, add)
    for (const fp of account.certificateFingerprints) keep(this.byFingerprint, fp, account, add)
  }

  private transactionKeys (tx: Transaction, add: boolean): void {
    const scope = tx.data.externalIdScope
    if (tx.externalId && typeof scope === 'string') keep(inner(this.txByExternalId, `${tx.accountId}\u0000${scope}`), tx.externalId, tx, add)
    if (tx.endToEndId) keep(this.txByEndToEndId, tx.endToEndId, tx, add)
    if (tx.idempotencyKey) keep(inner(this.txByIdempotencyKey, tx.accountId), canonicalIdempotencyKey(tx.idempotencyKey), tx, add)
    const refs = tx.data.refs
    if (Array.isArray(refs)) for (const ref of refs) keep(this.txByRef, ref, tx, add)
    // A received PIX carries its charge's txid too, and is not the charge.
    if (tx.kind === 'COB' || tx.kind === 'COBV') keep(inner(this.chargeByTxid, tx.accountId), tx.data.txid, tx, add)
  }

  private cobrKeys (cobr: CobR, add: boolean): void {
    keep(inner(this.chargeByTxid, cobr.accountId), cobr.txid, cobr, add)
  }

  private relist (accountId: number, back: Transaction[]): void {
    this.txByAccount.set(accountId, mergeBySeq(this.txByAccount.get(accountId) ?? [], back))
  }

  private unlist (accountId: number, tx: Transaction): void {
    const list = this.txByAccount.get(accountId)
    const at = list ? list.lastIndexOf(tx) : -1
    if (at >= 0) list!.splice(at, 1)
  }
}
