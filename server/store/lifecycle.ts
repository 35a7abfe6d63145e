import type { Derived } from './derived.js'
import type { Collection, Collections } from './state.js'
import type { Restored } from './units.js'

/**
 * The one lifecycle of what the services keep in memory besides the store. What a service derives from
 * the records (`derived`, store/derived.ts) is built anew after a load, an import or a reset, and mended
 * for exactly the records a rollback put back or an account's removal took away, here, for every
 * service in one order. What is not derived from the records (a rate limit, requests under way, a
 * running total recounted from an account's records) keeps a hook of `Lifecycle`, with the reason
 * beside it.
 */

/** Records a change named, by collection: what a rollback put back (`Restored`) or an account's removal took away. */
export interface NamedRecords {
  of<C extends Collection> (collection: C): ReadonlyArray<Collections[C]>
}

/** The records an account's removal took away, by collection (`Store.removeAccount`). */
export class RemovedRecords implements NamedRecords {
  private readonly byCollection = new Map<Collection, object[]>()

  add (collection: Collection, record: object): void {
    const records = this.byCollection.get(collection)
    if (records === undefined) this.byCollection.set(collection, [record])
    else records.push(record)
  }

  of<C extends Collection> (collection: C): ReadonlyArray<Collections[C]> {
    return (this.byCollection.get(collection) ?? []) as Array<Collections[C]>
  }
}

/**
 * What a service keeps in memory besides the store, and how it follows the state: `derived`, rebuilt
 * and mended for it; the hooks, for what is not derived from records, each saying why. `Lifecycles`
 * calls them, in one order, for all.
 */
export interface Lifecycle {
  /** What it keeps derived from the records: built anew after a load, an import or a reset, mended after a rollback or an account's removal. */
  readonly derived?: readonly Derived[]
  /** The state was loaded or replaced (`derived` rebuilt already): what else it keeps, and repairs of the records. */
  afterLoad? (): void
  /** A full reset emptied the store and the scheduler (`derived` rebuilt already): forget what else it keeps. */
  afterReset? (): void
  /** An account and its records are gone (`derived` mended already): forget what else it keeps about it. */
  forgetAccount? (accountId: number): void
  /**
   * A rollback (a failed unit, a failed write) put back the records `restored` names, each as it is
   * now (`derived` mended already): mend what else it keeps about those records, and nothing else.
   */
  afterRestore? (restored: Restored): void
}

/** The lifecycle of every service, in one order (the order they were wired in, which due jobs of the same instant keep). */
export class Lifecycles {
  constructor (private readonly services: readonly Lifecycle[]) {}

  /** Start-up and snapshot import (and a failed reset or import put back): inside a unit, the scheduler cleared. */
  load (): void {
    for (const service of this.services) {
      this.rebuild(service)
      service.afterLoad?.()
    }
  }

  /** A full reset: the store emptied, the scheduler cleared. */
  reset (): void {
    for (const service of this.services) {
      this.rebuild(service)
      service.afterReset?.()
    }
  }

  /** A rollback put back the records `restored` names (not a whole state: that is a load). */
  restored (restored: Restored): void {
    for (const service of this.services) {
      this.mend(service, restored)
      service.afterRestore?.(restored)
    }
  }

  /** An account's removal took away the records `removed` names. */
  accountRemoved (accountId: number, removed: NamedRecords): void {
    for (const service of this.services) {
      this.mend(service, removed)
      service.forgetAccount?.(accountId)
    }
  }

  private rebuild (service: Lifecycle): void {
    for (const derived of service.derived ?? []) derived.rebuild()
  }

  private mend (service: Lifecycle, named: NamedRecords): void {
    for (const derived of service.derived ?? []) {
      const records = named.of(derived.collection)
      if (records.length > 0) derived.mend(records)
    }
  }
}
