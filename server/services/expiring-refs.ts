import type { Lifecycle, Ports } from '../ports.js'
import { DueJobs, type Derived } from '../store/derived.js'
import type { IndexedData, Transaction } from '../store/state.js'
import { iso } from './history.js'

/** Refs a new transaction is found by for a while only (a dialect's idempotency key), and until when (sandbox ms). */
export interface ExpiringRefsInput {
  refs: readonly string[]
  until: number
}

/**
 * Refs that stop naming their transaction at an instant: a dialect's idempotency key, kept 24 h of the
 * clock (docs/assumptions.md, Mercado Pago). The instant is in the record (`data.refsExpiring`), so a
 * restart or an import keeps it; a due job drops the refs then, from the record and the index.
 */
export class ExpiringRefs implements Lifecycle {
  private readonly drops: DueJobs<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: Pick<Ports, 'store' | 'scheduler'>) {
    this.drops = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'ref-expiry',
      dueAt: tx => tx.data.refsExpiring === undefined ? undefined : Date.parse(tx.data.refsExpiring.at),
      run: tx => this.deps.store.dropExpiringRefs(tx.id),
    })
    this.derived = [this.drops]
  }

  /** The draft's data marked with them; they go with its other refs to `Store.addTransaction`. */
  mark (data: IndexedData, expiring: ExpiringRefsInput | undefined): readonly string[] {
    if (expiring === undefined || expiring.refs.length === 0) return []
    data.refsExpiring = { refs: [...expiring.refs], at: iso(expiring.until) }
    return expiring.refs
  }

  /** After the transaction was added: its refs' job. */
  follow (tx: Transaction): void {
    this.drops.follow(tx)
  }
}
