import type { Collection, Collections, State } from './state.js'

/**
 * Units and their before-images. The first time a unit touches a record, it keeps what the record
 * was (a copy of plain JSON that shares its strings); if the unit throws, the store puts back every
 * record it touched from these images. A unit inside a unit is a savepoint. With a data file the
 * durable log keeps images of its own, per write period, in the same shape (`Images`).
 */

/** The image of a record that did not exist: putting it back removes the record. */
export const ABSENT: unique symbol = Symbol('absent')
/** The "collection" of the id sequences, imaged like a record (and the name of their journal line). */
export const SEQ = 'seq'

/**
 * How much of a record a before-image copies, by what the change may touch: a patch replaces
 * top-level fields only (a shallow copy keeps the old values, which nothing mutates), a ledger
 * operation also changes an account's balance and totals in place (copied too), any other update may
 * change anything (a deep copy). An image is deepened when a later change in its unit needs more;
 * the nested objects it still shares are as they were, since only a deeper change mutates them.
 */
export const SHALLOW = 0
export const LEDGER = 1
export const DEEP = 2
export type Depth = typeof SHALLOW | typeof LEDGER | typeof DEEP

/**
 * A before-image: what a record was when a unit (or a write period) first touched it. `collection`
 * null marks a whole-state replacement, whose image is the replaced state.
 */
export interface Entry {
  record: object
  collection: Collection | typeof SEQ | null
  id: string
  image: unknown
  depth: Depth
}

export type Images = Map<object, Entry>

/**
 * A copy of a plain JSON value: objects and arrays copied, strings and numbers shared. Faster than
 * structuredClone for the handful of small records a unit touches, which is the hot path.
 */
export function copy<T> (value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const out = new Array(value.length)
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i])
    return out as T
  }
  const out: Record<string, unknown> = {}
  for (const key in value) out[key] = copy((value as Record<string, unknown>)[key])
  return out as T
}

/**
 * Puts `image` back into `live` in place, so whoever holds the record (an index, a request) sees it
 * restored. Fields the image lacks become undefined rather than deleted: a `delete` turns a record
 * into a slow dictionary-mode object, and JSON drops an undefined field all the same.
 */
export function restoreInto (live: Record<string, unknown>, image: Record<string, unknown>): void {
  for (const key in live) if (!(key in image)) live[key] = undefined
  for (const key in image) live[key] = copy(image[key])
}

/**
 * Puts one record back from its image into `state`, in place, so whoever holds the record (an index,
 * a request under way) sees it restored; returns the state, which a whole-state image replaces.
 */
export function putBack (state: State, e: Entry): State {
  if (e.collection === null) return e.image as State
  if (e.collection === SEQ) {
    restoreInto(e.record as Record<string, unknown>, e.image as Record<string, unknown>)
    return state
  }
  const records = state[e.collection] as Record<string, object>
  if (e.image === ABSENT) {
    if (records[e.id] === e.record) delete records[e.id]
  } else {
    restoreInto(e.record as Record<string, unknown>, e.image as Record<string, unknown>)
    records[e.id] = e.record
  }
  return state
}

/** The image of `record` as it is now, as deep as `depth` asks; `image` when the caller has it already (a replaced state). */
export function imageOf (record: object, collection: Entry['collection'], id: string, exists: boolean, depth: Depth, image?: unknown): Entry {
  if (image !== undefined) return { record, collection, id, image, depth: DEEP }
  if (!exists) return { record, collection, id, image: ABSENT, depth: DEEP }
  const r = record as Record<string, unknown>
  switch (depth) {
    case SHALLOW: return { record, collection, id, image: { ...r }, depth }
    case LEDGER: return { record, collection, id, image: { ...r, balance: copy(r.balance), totals: copy(r.totals) }, depth }
    default: return { record, collection, id, image: copy(record), depth: DEEP }
  }
}

/** Makes an image cover a deeper change (its shared nested objects are still as they were). */
export function deepen (entry: Entry, depth: Depth): void {
  if (entry.image === ABSENT || entry.depth >= depth) return
  const image = entry.image as Record<string, unknown>
  if (depth === DEEP) {
    entry.image = copy(image)
  } else {
    image.balance = copy(image.balance)
    image.totals = copy(image.totals)
  }
  entry.depth = depth
}

const AsyncFunction = (async () => {}).constructor

/** The units under way, innermost last, each with the images of what it touched (null until it writes). */
export class Units {
  private readonly stack: Array<Images | null> = []

  /**
   * Runs `fn` as one unit; if it throws (or returns a promise), `undo` gets the images of what it
   * touched, newest first, and the error goes on. A successful inner unit hands its images to the
   * unit around it, which takes it back with it should it fail.
   */
  run<T> (fn: () => T, undo: (entries: Entry[]) => void): T {
    if (fn.constructor === AsyncFunction) throw new TypeError('store.transact takes a synchronous function: no await between the first write and the last')
    const depth = this.stack.length
    this.stack.push(null)
    let result: T
    try {
      result = fn()
    } catch (err) {
      const unit = this.stack.pop()
      if (unit && unit.size > 0) undo([...unit.values()].reverse())
      throw err
    }
    const unit = this.stack.pop()
    if (result instanceof Promise) {
      if (unit && unit.size > 0) undo([...unit.values()].reverse())
      throw new TypeError('store.transact takes a synchronous function: it returned a promise')
    }
    if (unit && depth > 0) {
      const parent = this.stack[depth - 1]
      // An outer unit that touched nothing yet takes the inner one's images as they are (no copy, no
      // second map: a settlement is a unit inside the scheduler's). Otherwise it keeps its own image
      // where it has one (older, and deep enough: see touch).
      if (!parent) this.stack[depth - 1] = unit
      else for (const [record, entry] of unit) if (!parent.has(record)) parent.set(record, entry)
    }
    return result
  }

  /**
   * Records what `record` is before its first change in the innermost unit. Returns the image it
   * made, if it made one, so the write period can share it (it images the same moment).
   */
  touch (record: object, collection: Entry['collection'], id: string, exists: boolean, depth: Depth, image?: unknown): Entry | undefined {
    const top = this.stack.length - 1
    if (top < 0) throw new Error(`store: a change to ${collection ?? 'the state'} outside store.transact`)
    const unit = this.stack[top] ?? (this.stack[top] = new Map())
    let entry: Entry | undefined
    const inUnit = unit.get(record)
    if (inUnit === undefined) {
      entry = imageOf(record, collection, id, exists, depth, image)
      unit.set(record, entry)
    } else if (inUnit.depth < depth) {
      deepen(inUnit, depth)
    }
    // The images of the enclosing units share nested objects with the record too: a change that edits
    // them in place must find every image deep enough first.
    if (depth !== SHALLOW) {
      for (let i = 0; i < top; i++) {
        const outer = this.stack[i]?.get(record)
        if (outer !== undefined && outer.depth < depth) deepen(outer, depth)
      }
    }
    return entry
  }
}

/**
 * What a rollback put back, as the store tells whoever keeps state derived from the records
 * (`Store.onRestored`): the records of each collection that it touched, each as it is now (put back
 * in place, added back, or taken away: then no longer in the state), or `whole` when it put back a
 * whole state (a reset or an import that failed), after which everything derived is rebuilt.
 */
export class Restored {
  readonly whole: boolean
  /** Per collection, each record touched and the id it is kept under. */
  private readonly byCollection = new Map<Collection, Map<object, string>>()

  constructor (entries: readonly Entry[], private readonly state: () => State) {
    this.whole = entries.some(e => e.collection === null)
    for (const e of entries) {
      if (e.collection === null || e.collection === SEQ) continue
      let records = this.byCollection.get(e.collection)
      if (!records) this.byCollection.set(e.collection, records = new Map())
      records.set(e.record, e.id)
    }
  }

  /** Every record of `collection` the rollback touched, whether it is in the state now or not. */
  of<C extends Collection> (collection: C): Array<Collections[C]> {
    return [...(this.byCollection.get(collection)?.keys() ?? [])] as Array<Collections[C]>
  }

  /** Those of them that are in the state now (put back in place, or added back). */
  inState<C extends Collection> (collection: C): Array<Collections[C]> {
    return this.of(collection).filter(record => this.isInState(collection, record))
  }

  /** Whether `record` of `collection` is in the state now. */
  isInState (collection: Collection, record: object): boolean {
    const id = this.byCollection.get(collection)?.get(record)
    const records = this.state()[collection] as Record<string, object>
    return id !== undefined && Object.hasOwn(records, id) && records[id] === record
  }
}
