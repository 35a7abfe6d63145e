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
abstract class Over<C extends Collection> implements Derived {
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

/** The first index of [from, to) where `before` no longer holds (it holds on a prefix of the range): a binary search. */
function upTo (from: number, to: number, before: (i: number) => boolean): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}

function keep (map: Map<string, RecordKey>, key: string, at: RecordKey, add: boolean): void {
  if (add) map.set(key, at)
  else if (map.get(key) === at) map.delete(key)
}

/**
 * Lists of records in the order they were made (the store's order), by key: an account's recurrences,
 * a recurrence's charges. A record is listed under its keys for as long as it is in the state: its
 * keys come from what it never changes.
 */
export class RecordLists<C extends Collection> extends Over<C> {
  private readonly lists = new Map<string, RecordKey[]>()
  /** The lists whose records are not in the order of their instants (an imported document may hold them so): `within` reads those whole. */
  private readonly unordered = new Set<string>()

  /**
   * `instant`, when given, is what a record's lists are read by (`within`): an instant it never
   * changes, its creation. Records are made in its order (the clock moves forward only), so a list
   * is searched, not walked.
   */
  constructor (store: StateReader, collection: C, private readonly keys: (record: Collections[C]) => string | readonly string[], private readonly instant?: (record: Collections[C]) => string) {
    super(store, collection)
  }

  /** The keys of the records listed under `key`, oldest first. */
  of (key: string): readonly RecordKey[] {
    return this.lists.get(key) ?? []
  }

  /**
   * A page of the records listed under `key`, the last made first: at most `limit` of those made
   * before the `cursor`-th (the `nextCursor` of the page before), and the cursor of the page after
   * while older ones remain. Its cost is the page's, whatever the length of the list.
   */
  newestFirst (key: string, limit: number, cursor?: number): { records: Array<Collections[C]>, nextCursor?: number } {
    const list = this.of(key)
    const end = Math.min(cursor ?? list.length, list.length)
    const start = Math.max(0, end - limit)
    return { records: this.recordsAt(list.slice(start, end).reverse()), ...(start > 0 ? { nextCursor: start } : {}) }
  }

  /** The records listed under `key`, oldest first. */
  listed (key: string): Array<Collections[C]> {
    return this.recordsAt(this.of(key))
  }

  /**
   * The records listed under `key` whose instant is within the range, oldest
   * first: found by a binary search of the list, so what it costs is what it answers, whatever the
   * length of the list.
   */
  within (key: string, range: InstantRange): Array<Collections[C]> {
    const at = this.instant
    if (at === undefined) throw new Error(`the lists of ${this.collection} are not read by instant`)
    if (this.unordered.has(key)) return this.listed(key).filter(r => { const t = Date.parse(at(r)); return t >= range.from && t <= range.to })
    const [lo, hi] = this.bounds(key, range)
    return this.recordsAt(this.of(key).slice(lo, hi))
  }

  /**
   * How many records listed under `key` have their instant within the range, and `limit` of them
   * from the `offset`-th, counted from the newest when `newestFirst`: a binary search and the page,
   * whatever the length of the list. Undefined for a list out of its instants' order (then `within`).
   */
  pageWithin (key: string, range: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, records: Array<Collections[C]> } | undefined {
    if (this.instant === undefined) throw new Error(`the lists of ${this.collection} are not read by instant`)
    if (this.unordered.has(key)) return undefined
    const [lo, hi] = this.bounds(key, range)
    const list = this.of(key)
    const keys = newestFirst ? list.slice(Math.max(lo, hi - offset - limit), Math.max(lo, hi - offset)).reverse() : list.slice(Math.min(hi, lo + offset), Math.min(hi, lo + offset + limit))
    return { total: hi - lo, records: this.recordsAt(keys) }
  }

  /** The first and past-the-last positions of the range in an ordered list (binary searches). */
  private bounds (key: string, { from, to }: InstantRange): [number, number] {
    const at = this.instant!
    const list = this.of(key)
    const ms = (i: number): number => { const record = this.recordAt(list[i]); return record === undefined ? NaN : Date.parse(at(record)) }
    const lo = upTo(0, list.length, i => ms(i) < from)
    return [lo, upTo(lo, list.length, i => ms(i) <= to)]
  }

  private recordsAt (keys: readonly RecordKey[]): Array<Collections[C]> {
    const records: Array<Collections[C]> = []
    for (const at of keys) {
      const record = this.recordAt(at)
      if (record !== undefined) records.push(record)
    }
    return records
  }

  /** A record just made, the newest of its collection: last of its lists. */
  add (record: Collections[C]): void {
    const at = this.keyOf(record)
    for (const key of this.keysOf(record)) {
      const list = this.lists.get(key)
      if (list === undefined) this.lists.set(key, [at])
      else {
        const last = this.instant === undefined || this.unordered.has(key) ? undefined : this.recordAt(list[list.length - 1])
        if (last !== undefined && Date.parse(this.instant!(last)) > Date.parse(this.instant!(record))) this.unordered.add(key)
        list.push(at)
      }
    }
  }

  rebuild (): void {
    this.lists.clear()
    this.unordered.clear()
    for (const record of this.records()) this.add(record)
  }

  /**
   * A record taken away leaves its lists (searched from the newest, where what a rollback takes away
   * was put). One put back after it was taken away (a failed removal) is rare: the lists are made
   * again from the store's order then, which is its place.
   */
  mend (records: ReadonlyArray<Collections[C]>): void {
    let putBack = false
    // Each list loses what went from it in one pass (an account's removal takes many records from one list).
    const gone = new Map<string, Set<RecordKey>>()
    for (const record of records) {
      // A record with no key is in no list (a pay-out among the transactions a list of refunds keeps).
      if (this.keysOf(record).length === 0) continue
      const at = this.keyOf(record)
      if (this.isLive(record)) {
        putBack ||= this.shortestList(record).lastIndexOf(at) < 0
        continue
      }
      for (const key of this.keysOf(record)) {
        const ats = gone.get(key)
        if (ats === undefined) gone.set(key, new Set([at]))
        else ats.add(at)
      }
    }
    for (const [key, ats] of gone) {
      let list = this.lists.get(key)
      if (list === undefined) continue
      if (ats.size > 1) this.lists.set(key, list = list.filter(at => !ats.has(at)))
      else {
        const i = list.lastIndexOf(ats.values().next().value!)
        if (i >= 0) list.splice(i, 1)
      }
      if (list.length === 0) {
        this.lists.delete(key)
        this.unordered.delete(key)
      }
    }
    if (putBack) this.rebuild()
  }

  private keysOf (record: Collections[C]): readonly string[] {
    const keys = this.keys(record)
    return typeof keys === 'string' ? [keys] : keys
  }

  /** A record is under all its keys or none: the shortest of its lists tells which, soonest. */
  private shortestList (record: Collections[C]): readonly RecordKey[] {
    let shortest: readonly RecordKey[] = []
    let first = true
    for (const key of this.keysOf(record)) {
      const list = this.of(key)
      if (first || list.length < shortest.length) shortest = list
      first = false
    }
    return shortest
  }
}

export interface StageListsOptions<R> {
  /** The list a record is under: read from what it never changes (its account). */
  list: (record: R) => string
  /**
   * When the record reached the stage (ms since the epoch), as it stands now: undefined while it has
   * not (or no longer has: a rollback put it back as it was before). Once reached, it never changes.
   */
  reached: (record: R) => number | undefined
  /** What orders the records that reached it in the same millisecond: the order they were made (a transaction's `seq`). */
  tie: (record: R) => number
}

/** A record in a stage's list: the instant it reached the stage and its tie, kept so that a list is searched without reading its records. */
interface Reached { at: number, tie: number, key: RecordKey }

const before = (a: Reached, b: { at: number, tie: number }): boolean => a.at < b.at || (a.at === b.at && a.tie < b.tie)

/**
 * Lists of the records that reached a stage (a PIX received: a charge once paid), by key, in the
 * order of the instant each reached it, not of their making: a cob made first and paid last is
 * last. A record enters its list when a write makes it reach the stage (`follow`), and leaves it
 * when a rollback puts it back as it was before, or when it is taken away. The lists are sorted
 * when they are built, whatever order the store (an imported document) holds the records in, so
 * `within` is always a binary search.
 */
export class StageLists<C extends Collection> extends Over<C> {
  private readonly lists = new Map<string, Reached[]>()
  /** Where each listed record is (its list, and the entry searched there): how a record leaves without a walk. */
  private readonly listed = new Map<RecordKey, { list: string, entry: Reached }>()

  constructor (store: StateReader, collection: C, private readonly options: StageListsOptions<Collections[C]>) {
    super(store, collection)
  }

  /**
   * The records listed under `key` that reached the stage within the range, in the order they
   * reached it: two binary searches and the answer, whatever the length of the list.
   */
  within (key: string, { from, to }: InstantRange): Array<Collections[C]> {
    const list = this.lists.get(key) ?? []
    const lo = upTo(0, list.length, i => list[i].at < from)
    const hi = upTo(lo, list.length, i => list[i].at <= to)
    const records: Array<Collections[C]> = []
    for (let i = lo; i < hi; i++) {
      const record = this.recordAt(list[i].key)
      if (record !== undefined) records.push(record)
    }
    return records
  }

  /** After a write: the record is listed exactly while it is in the state and has reached the stage. */
  follow (record: Collections[C]): void {
    const key = this.keyOf(record)
    const at = this.isLive(record) ? this.options.reached(record) : undefined
    const was = this.listed.get(key)
    if (was !== undefined && at === was.entry.at) return
    if (was !== undefined) this.unlist(was.list, new Set([key]))
    if (at !== undefined) this.insert(record, at)
  }

  rebuild (): void {
    this.lists.clear()
    this.listed.clear()
    for (const record of this.records()) {
      const at = this.options.reached(record)
      if (at === undefined) continue
      const list = this.options.list(record)
      const entry = { at, tie: this.options.tie(record), key: this.keyOf(record) }
      const entries = this.lists.get(list)
      if (entries === undefined) this.lists.set(list, [entry])
      else entries.push(entry)
      this.listed.set(entry.key, { list, entry })
    }
    // A stable sort: records of the same instant and tie keep the store's order.
    for (const entries of this.lists.values()) entries.sort((a, b) => a.at - b.at || a.tie - b.tie)
  }

  /** Every named record leaves first (each list in one pass: an account's removal takes many from one), then the live ones that reached the stage come back. */
  mend (records: ReadonlyArray<Collections[C]>): void {
    const gone = new Map<string, Set<RecordKey>>()
    for (const record of records) {
      const key = this.keyOf(record)
      const was = this.listed.get(key)
      if (was === undefined) continue
      const keys = gone.get(was.list)
      if (keys === undefined) gone.set(was.list, new Set([key]))
      else keys.add(key)
    }
    for (const [list, keys] of gone) this.unlist(list, keys)
    for (const record of records) {
      const at = this.isLive(record) && !this.listed.has(this.keyOf(record)) ? this.options.reached(record) : undefined
      if (at !== undefined) this.insert(record, at)
    }
  }

  /** A record that reached the stage goes to its place: last, unless the clock or an import put others after it. */
  private insert (record: Collections[C], at: number): void {
    const list = this.options.list(record)
    const entry = { at, tie: this.options.tie(record), key: this.keyOf(record) }
    let entries = this.lists.get(list)
    if (entries === undefined) this.lists.set(list, entries = [])
    if (entries.length === 0 || !before(entry, entries[entries.length - 1])) entries.push(entry)
    else entries.splice(upTo(0, entries.length, i => !before(entry, entries![i])), 0, entry)
    this.listed.set(entry.key, { list, entry })
  }

  /** These records, listed under `list`, leave it: one found by a binary search, many in one pass. */
  private unlist (list: string, keys: ReadonlySet<RecordKey>): void {
    let entries = this.lists.get(list)
    if (entries === undefined) return
    if (keys.size === 1) {
      const was = this.listed.get(keys.values().next().value!)
      const i = was === undefined ? -1 : entries.indexOf(was.entry, upTo(0, entries.length, i => before(entries![i], was.entry)))
      if (i >= 0) entries.splice(i, 1)
    } else this.lists.set(list, entries = entries.filter(entry => !keys.has(entry.key)))
    for (const key of keys) this.listed.delete(key)
    if (entries.length === 0) this.lists.delete(list)
  }
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
