import { type Collection, type Collections } from './state.js'
import { Over, type InstantRange, type RecordKey, type StateReader } from './derived.js'

/*
 * Lists of records by key, read by instant (derived.ts has the other kinds of derived state): in the
 * order the records were made (RecordLists), or in the order they reached a stage (StageLists).
 */

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

  /** Whether the records listed under `key` are in the order of their instants (`pageWithin` reads them so). */
  ordered (key: string): boolean {
    return !this.unordered.has(key)
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
  /**
   * The list a record is under, as it stands now: read from what it never changes (its account), or
   * from what it may become too (a charge's stage): `follow` moves it to its place in its new list.
   */
  list: (record: R) => string
  /**
   * When the record reached the stage (ms since the epoch), as it stands now: undefined while it has
   * not (or no longer has: a rollback put it back as it was before). It may move later (a charge's last change): `follow` moves the record to its new place.
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

  /**
   * How many records listed under any of `keys` reached the stage within the range, and `limit` of
   * them from the `offset`-th in the order they reached it (the latest first when `newestFirst`), the
   * lists read as one: binary searches, then the entries up to the page (a merge of the lists when
   * there are several, bounded by offset and limit), and the page's records alone, whatever the
   * length of the lists.
   */
  pageWithin (keys: readonly string[], { from, to }: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, records: Array<Collections[C]> } {
    const spans = keys.map(key => {
      const list = this.lists.get(key) ?? []
      const lo = upTo(0, list.length, i => list[i].at < from)
      return { list, lo, hi: upTo(lo, list.length, i => list[i].at <= to) }
    }).filter(span => span.hi > span.lo)
    const total = spans.reduce((sum, span) => sum + span.hi - span.lo, 0)
    const page: Reached[] = []
    if (spans.length === 1) {
      const { list, lo, hi } = spans[0]
      page.push(...(newestFirst ? list.slice(Math.max(lo, hi - offset - limit), Math.max(lo, hi - offset)).reverse() : list.slice(Math.min(hi, lo + offset), Math.min(hi, lo + offset + limit))))
    } else {
      // Each list's next entry in the page's order, the first of them taken each time.
      const next = spans.map(span => newestFirst ? span.hi - 1 : span.lo)
      const left = (i: number): boolean => newestFirst ? next[i] >= spans[i].lo : next[i] < spans[i].hi
      for (let n = 0; n < offset + limit; n++) {
        let first = -1
        for (let i = 0; i < spans.length; i++) {
          if (!left(i)) continue
          if (first < 0) { first = i; continue }
          const [a, b] = [spans[i].list[next[i]], spans[first].list[next[first]]]
          if (newestFirst ? before(b, a) : before(a, b)) first = i
        }
        if (first < 0) break
        if (n >= offset) page.push(spans[first].list[next[first]])
        next[first] += newestFirst ? -1 : 1
      }
    }
    const records: Array<Collections[C]> = []
    for (const entry of page) {
      const record = this.recordAt(entry.key)
      if (record !== undefined) records.push(record)
    }
    return { total, records }
  }

  /** After a write: the record is listed exactly while it is in the state and has reached the stage, in the list it is under now. */
  follow (record: Collections[C]): void {
    const key = this.keyOf(record)
    const at = this.isLive(record) ? this.options.reached(record) : undefined
    const was = this.listed.get(key)
    if (was !== undefined && at === was.entry.at && (at === undefined || this.options.list(record) === was.list)) return
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
