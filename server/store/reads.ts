import { Repository } from './repository.js'
import type { Account, ChargeOfTxid, DeepReadonly, DirectoryEntry, State, Transaction } from './state.js'

/**
 * What everyone reads of the store: the whole state and its lookups (`repository.ts`), read-only all
 * the way down. `Store` (store.ts) is this and the one write path.
 */
export class StoreReads {
  protected readonly repo = new Repository()

  /** The whole state, read-only. */
  get data (): DeepReadonly<State> {
    return this.repo.state
  }

  account (id: number): Account | undefined { return this.repo.account(id) }
  accounts (): Account[] { return this.repo.accounts() }
  accountByClientId (clientId: string): Account | undefined { return this.repo.accountByClientId(clientId) }
  /** The account whose Mercado Pago credentials carry this access token. */
  accountByAccessToken (token: string): Account | undefined { return this.repo.accountByAccessToken(token) }
  accountByFingerprint (fingerprint: string): Account | undefined { return this.repo.accountByFingerprint(fingerprint) }
  transaction (id: string): Transaction | undefined { return this.repo.transaction(id) }
  transactionsOf (accountId: number): readonly Transaction[] { return this.repo.transactionsOf(accountId) }

  /** externalId is unique per account within one family of operations (`scope`, e.g. "cash-out"). */
  transactionByExternalId (accountId: number, scope: string, externalId: string): Transaction | undefined {
    return this.repo.transactionByExternalId(accountId, scope, externalId)
  }

  transactionByEndToEndId (endToEndId: string): Transaction | undefined { return this.repo.transactionByEndToEndId(endToEndId) }

  /** By the key's canonical form, whatever case it was given or stored in (a state written before keys were canonical). */
  transactionByIdempotencyKey (accountId: number, key: string): Transaction | undefined {
    return this.repo.transactionByIdempotencyKey(accountId, key)
  }

  /**
   * Other lookups a capability needs (a cob by txid, a charge by its QR location, a refund by rtrId):
   * the transaction lists its refs in `data.refs`, and the store indexes them on add and on load.
   */
  transactionByRef (ref: string): Transaction | undefined { return this.repo.transactionByRef(ref) }

  /**
   * The account's charge of a txid, whatever its kind: a cob or cobv (a transaction) or a cobr. A
   * txid names one charge of its receiver (docs/api-pix.md, "One txid, one charge"): every way of
   * creating a charge looks here, in the unit that adds it.
   */
  chargeOfTxid (accountId: number, txid: string): ChargeOfTxid | undefined { return this.repo.chargeOfTxid(accountId, txid) }

  directoryEntry (key: string): DirectoryEntry | undefined { return this.repo.directoryEntry(key) }
}
