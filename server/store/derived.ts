import { ownRecord } from './repository.js'
import { COLLECTION_RECORDS, type Collection, type Collections, type DeepReadonly, type State } from './state.js'

/**
 * What a service keeps in memory derived from the records: its indexes (`KeyIndex`, `RecordLists`),
 * its due jobs (`DueJobs`), a cache (`Cache`). The service follows its own writes through them; the
 * lifecycle (`lifecycle.ts`) builds them anew after a load, an import or a reset, and mends them for
 * exactly the records a rollback put back or an account's removal took away.
 */

/** What the derived state reads of the store: the state (the store itself). */
export interface StateReader {
  readonly data: DeepReadonly<State>
}

/** The scheduler, as due jobs use it (the engine's Scheduler, whose keyed jobs replace one another). */
export interface JobScheduler {
  at (dueAt: number, kind: string, run: () => void, key: string): unknown
  cancelKey (key: string): void
}

/** What a record is kept under in its collection: the field COLLECTION_RECORDS names (`key`), else `id`; as the record holds it. */
export type RecordKey = string | number

export function keyFieldOf (collection: Collection): string {
  return (COLLECTION_RECORDS[collection] as { key?: string }).key ?? 'id'
}

/** One thing a service keeps derived from the records of one collection. */
export interface Derived {
  readonly collection: Collection
  /** The state was loaded, imported or reset (and the scheduler cleared): build it anew from every record. */
  rebuild (): void
  /** These records of the collection changed under it (put back, added back, taken away): follow each as it is now. */
  mend (records: readonly object[]): void
}

/** What every kind of derived state does with its collection: read its records, and tell a live one from one gone. */
export abstract class Over<C extends Collection> implements Derived {
  private readonly keyField: string

  constructor (protected readonly store: StateReader, readonly collection: C) {
    this.keyField = keyFieldOf(collection)
  }

  abstract rebuild (): void
  abstract mend (records: readonly object[]): void

  protected records (): Array<Collections[C]> {
    return Object.values(this.store.data[this.collection]) as Array<Collections[C]>
  }

  protected keyOf (record: Collections[C]): RecordKey {
    return (record as unknown as Record<string, RecordKey>)[this.keyField]
  }

  /** The record kept under `key` now, if any. */
  protected recordAt (key: RecordKey): Collections[C] | undefined {
    return ownRecord(this.store.data[this.collection] as Readonly<Record<string, Collections[C]>>, String(key))
  }

  /** Whether this very record is in the state now (not one a rollback or a removal took away, nor one another took the place of). */
  protected isLive (record: Collections[C]): boolean {
    return this.recordAt(this.keyOf(record)) === record
  }
}

const NO_SCOPE = ''
const ALWAYS = (): boolean => true

export interface KeyIndexOptions<R> {
  /**
   * The record's keys, each naming it alone (a later record under the same key takes it). Read from
   * what a record never changes, so that a record's keys are the same whatever it has become (a
   * rollback finds them on the record as it is put back).
   */
  keys: (record: R) => string | readonly string[] | undefined
  /** Within which owner the keys are unique (an account): a map per owner, rather than a joined string per record. */
  scope?: (record: R) => number | string
  /** While the record is indexed (`PENDING`, say); always when not said. */
  holds?: (record: R) => boolean
}

/** Keys to the one record each names (a location by its token, a charge to the pay-out paying it). */
export class KeyIndex<C extends Collection> extends Over<C> {
  private readonly byScope = new Map<number | string, Map<string, RecordKey>>()
  private readonly keys: KeyIndexOptions<Collections[C]>['keys']
  private readonly scope: (record: Collections[C]) => number | string
  private readonly holds: (record: Collections[C]) => boolean

  constructor (store: StateReader, collection: C, options: KeyIndexOptions<Collections[C]>) {
    super(store, collection)
    this.keys = options.keys
    this.scope = options.scope ?? (() => NO_SCOPE)
    this.holds = options.holds ?? ALWAYS
  }

  /** What `key` (within `scope`) names: the key of its record in the collection. */
  get (key: string, scope: number | string = NO_SCOPE): RecordKey | undefined {
    return this.byScope.get(scope)?.get(key)
  }

  /** The record `key` (within `scope`) names, if it is still there. */
  record (key: string, scope: number | string = NO_SCOPE): Collections[C] | undefined {
    const at = this.get(key, scope)
    return at === undefined ? undefined : this.recordAt(at)
  }

  has (key: string, scope: number | string = NO_SCOPE): boolean {
    return this.get(key, scope) !== undefined
  }

  /** Whether no record is indexed at all (a check that costs nothing, whatever the collection holds). */
  empty (): boolean {
    return this.byScope.size === 0
  }

  /**
   * The records indexed within `scope`, or within every scope when none is given (no particular
   * order; a record once per key): what holds now, without a walk of the whole collection.
   */
  * indexed (scope?: number | string): Iterable<Collections[C]> {
    const maps = scope === undefined ? this.byScope.values() : [this.byScope.get(scope) ?? new Map<string, RecordKey>()]
    for (const map of maps) {
      for (const at of map.values()) {
        const record = this.recordAt(at)
        if (record !== undefined) yield record
      }
    }
  }

  /** After a write: the record is indexed exactly while it is in the state and holds. */
  follow (record: Collections[C]): void {
    const keys = this.keys(record)
    if (keys === undefined) return
    this.put(record, keys, this.holds(record) && this.isLive(record))
  }

  rebuild (): void {
    this.byScope.clear()
    for (const record of this.records()) {
      const keys = this.keys(record)
      if (keys !== undefined && this.holds(record)) this.put(record, keys, true)
    }
  }

  /** Every named record leaves first, then the live ones come back: a record replaced under its key shares the key with its successor. */
  mend (records: ReadonlyArray<Collections[C]>): void {
    for (const record of records) {
      const keys = this.keys(record)
      if (keys !== undefined) this.put(record, keys, false)
    }
    for (const record of records) {
      const keys = this.keys(record)
      if (keys !== undefined && this.holds(record) && this.isLive(record)) this.put(record, keys, true)
    }
  }

  /** Sets the record's keys, or takes away those that still name it (another record may have taken one since). */
  private put (record: Collections[C], keys: string | readonly string[], add: boolean): void {
    const scope = this.scope(record)
    let map = this.byScope.get(scope)
    if (map === undefined) {
      if (!add) return
      this.byScope.set(scope, map = new Map())
    }
    const at = this.keyOf(record)
    if (typeof keys === 'string') keep(map, keys, at, add)
    else for (const key of keys) keep(map, key, at, add)
    if (map.size === 0) this.byScope.delete(scope)
  }
}

function keep (map: Map<string, RecordKey>, key: string, at: RecordKey, add: boolean): void {
  if (add) map.set(key, at)
  else if (map.get(key) === at) map.delete(key)
}

/** A range of instants (ms since the epoch, both included): what a list read by instant answers (`RecordLists.within`). */
export interface InstantRange { from: number, to: number }

export interface DueJob<R> {
  /** What the job is for; its key is `<purpose>:<record key>`, one job per record and purpose. */
  purpose: string
  /** The scheduler's kind of job (its purpose when not said). */
  kind?: (record: R) => string
  /** When the record's job is due as the record stands now; undefined while it needs none. */
  dueAt: (record: R) => number | undefined
  /** The job: given the record as it is when the job runs (not run once the record is gone), which it checks is still due. */
  run: (record: R) => void
}

/**
 * One keyed job per record and purpose (a charge's expiry, a pay-out's settlement): scheduled when
 * the record has something due, cancelled when it no longer has, and, being keyed, a later schedule
 * takes the place of the one before (a record changed a thousand times has one job).
 */
export class DueJobs<C extends Collection> extends Over<C> {
  constructor (store: StateReader, private readonly scheduler: JobScheduler, collection: C, private readonly job: DueJob<Collections[C]>) {
    super(store, collection)
  }

  /** After a write: the record's job as it stands now. */
  follow (record: Collections[C]): void {
    const dueAt = this.isLive(record) ? this.job.dueAt(record) : undefined
    if (dueAt === undefined) this.scheduler.cancelKey(this.jobKey(this.keyOf(record)))
    else this.schedule(record, dueAt)
  }

  /** The scheduler was cleared: every record with something due gets its job. */
  rebuild (): void {
    for (const record of this.records()) {
      const dueAt = this.job.dueAt(record)
      if (dueAt !== undefined) this.schedule(record, dueAt)
    }
  }

  /** The jobs of records taken away go first, then the others follow their records (a replaced record shares its key with its successor). */
  mend (records: ReadonlyArray<Collections[C]>): void {
    for (const record of records) if (!this.isLive(record)) this.scheduler.cancelKey(this.jobKey(this.keyOf(record)))
    for (const record of records) if (this.isLive(record)) this.follow(record)
  }

  private schedule (record: Collections[C], dueAt: number): void {
    const key = this.keyOf(record)
    this.scheduler.at(dueAt, this.job.kind?.(record) ?? this.job.purpose, () => {
      const now = this.recordAt(key)
      if (now !== undefined) this.job.run(now)
    }, this.jobKey(key))
  }

  private jobKey (key: RecordKey): string {
    return `${this.job.purpose}:${key}`
  }
}

/** A cache over a collection, dropped whenever any of its records changes under it (a load, a rollback). */
export class Cache implements Derived {
  constructor (readonly collection: Collection, private readonly drop: () => void) {}

  rebuild (): void {
    this.drop()
  }

  mend (records: readonly object[]): void {
    if (records.length > 0) this.drop()
  }
}
