import type { Store } from '../store/store.js'
import type { Delivery, DeliveryStatus, EventType } from './types.js'

/**
 * The delivery log: `store.data.deliveries` plus an in-memory index per account in creation order,
 * the per-account cap, the filters of the control plane, and the listeners the long-poll waits on.
 */
export interface DeliveryFilter {
  accountId?: number
  eventType?: EventType
  transactionId?: string
  status?: DeliveryStatus
}

export function matches (d: Delivery, f: DeliveryFilter): boolean {
  return (f.accountId === undefined || d.accountId === f.accountId) &&
    (f.eventType === undefined || d.eventType === f.eventType) &&
    (f.transactionId === undefined || d.transactionId === f.transactionId) &&
    (f.status === undefined || d.status === f.status)
}

export class DeliveryLog {
  private byAccount = new Map<number, Delivery[]>()
  private readonly listeners = new Set<(d: Delivery) => void>()

  constructor (private readonly store: Store, private readonly capPerAccount: () => number) {}

  private get records (): Record<string, Delivery> {
    return this.store.data.deliveries
  }

  get (id: string): Delivery | undefined {
    return this.records[id]
  }

  all (): Delivery[] {
    return Object.values(this.records)
  }

  /** Rebuilds the index after the document was replaced (load, import, reset). */
  reindex (): void {
    this.byAccount.clear()
    for (const d of this.all().sort((a, b) => a.seq - b.seq)) this.indexOf(d.accountId).push(d)
  }

  /**
   * Adds a delivery; when the account's log is over its cap, drops the oldest finished deliveries
   * first (a pending one is still going to happen), and returns what was dropped so its jobs stop.
   */
  add (d: Delivery): Delivery[] {
    this.records[d.id] = d
    const list = this.indexOf(d.accountId)
    list.push(d)
    const evicted: Delivery[] = []
    while (list.length > this.capPerAccount()) {
      let i = list.findIndex(x => x.status !== 'pending')
      if (i === -1) i = 0
      const [old] = list.splice(i, 1)
      delete this.records[old.id]
      evicted.push(old)
    }
    this.changed(d)
    return evicted
  }

  removeAccount (accountId: number): Delivery[] {
    const list = this.byAccount.get(accountId) ?? []
    for (const d of list) delete this.records[d.id]
    this.byAccount.delete(accountId)
    return list
  }

  /** Newest first. */
  query (f: DeliveryFilter, limit: number): Delivery[] {
    const lists = f.accountId !== undefined ? [this.byAccount.get(f.accountId) ?? []] : [...this.byAccount.values()]
    const out: Delivery[] = []
    for (const list of lists) {
      for (let i = list.length - 1; i >= 0; i--) if (matches(list[i], f)) out.push(list[i])
    }
    out.sort((a, b) => b.seq - a.seq)
    return out.slice(0, limit)
  }

  /** Tells every waiter that a delivery was created or changed. */
  changed (d: Delivery): void {
    for (const listener of [...this.listeners]) listener(d)
  }

  listen (listener: (d: Delivery) => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  private indexOf (accountId: number): Delivery[] {
    let list = this.byAccount.get(accountId)
    if (!list) this.byAccount.set(accountId, list = [])
    return list
  }
}
