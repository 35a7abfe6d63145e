import type { PendingOperations, Ports, ReceivedPayments } from '../ports.js'
import type { Transaction, TransactionKind } from '../store/state.js'

export type TransactionsDeps = Pick<Ports, 'store'>

/**
 * Every transaction, whatever capability owns it: the queries of the control plane and of the
 * capabilities that follow a payment across kinds (refunds and MED find the received payment), and the
 * registry of pending operations that POST /__sandbox/transactions/:id/settle and /fail dispatch to.
 */
export class TransactionService implements ReceivedPayments {
  private readonly pending = new Map<TransactionKind, PendingOperations>()

  constructor (private readonly deps: TransactionsDeps) {}

  /** Registers how the pending transactions of some kinds are settled or failed now. */
  register (ops: PendingOperations): void {
    for (const kind of ops.kinds) this.pending.set(kind, ops)
  }

  pendingOperationsFor (kind: TransactionKind): PendingOperations | undefined {
    return this.pending.get(kind)
  }

  /** Newest first. With an account, only its own index is walked. */
  list (filter: { accountId?: number, kind?: TransactionKind, status?: string, limit?: number }): Transaction[] {
    const { store } = this.deps
    const source = filter.accountId !== undefined ? store.transactionsOf(filter.accountId) : Object.values(store.data.transactions)
    const limit = filter.limit ?? 100
    const out: Transaction[] = []
    for (let i = source.length - 1; i >= 0 && out.length < limit; i--) {
      const tx = source[i]
      if (filter.kind !== undefined && tx.kind !== filter.kind) continue
      if (filter.status !== undefined && tx.status !== filter.status) continue
      out.push(tx)
    }
    return out
  }

  /** By UUID, or by the numeric id the public answers show (`id` of /dict/pix, `existingTransactionId`). */
  find (id: string): Transaction | undefined {
    const { store } = this.deps
    const byId = store.transaction(id)
    if (byId || !/^\d{1,15}$/.test(id)) return byId
    const seq = Number(id)
    // A control-plane read by number: a scan is acceptable here, never on a public route.
    return Object.values(store.data.transactions).find(tx => tx.seq === seq)
  }

  /** The received payment of an account by transactionId or endToEndId (refund-in, devolução, MED). */
  findReceived (idOrEndToEndId: string): Transaction | undefined {
    return this.deps.store.transactionByRef(`e2e-in:${idOrEndToEndId}`) ?? this.deps.store.transaction(idOrEndToEndId)
  }
}
