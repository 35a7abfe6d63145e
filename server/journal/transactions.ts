import type { Transaction } from '../store/state.js'
import type { TransactionLookup } from './journal.js'

interface TransactionIndex {
  transaction: (id: string) => Transaction | undefined
  transactionByRef: (ref: string) => Transaction | undefined
  transactionByEndToEndId: (endToEndId: string) => Transaction | undefined
}

/**
 * The first of a request's candidate ids that names a transaction of its account (or of any account
 * for a control-plane request with none): by id, by a reference the gateway answers with (txid,
 * devolução id, the directory transfer's numeric id), or by endToEndId.
 */
export function transactionLookup (store: TransactionIndex): TransactionLookup {
  return (candidates, accountId) => {
    for (const c of candidates) {
      const tx = store.transaction(c) ?? store.transactionByRef(c) ?? store.transactionByEndToEndId(c)
      if (tx && (accountId === null || tx.accountId === accountId)) return tx.id
    }
    return null
  }
}
