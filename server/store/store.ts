import { Low, type Adapter } from 'lowdb'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { StartupError } from '../errors/startup.js'
import { classify, jsonErrorLocation, readDocument } from './document.js'
import { NodeFs, type StoreFs } from './fs.js'
import {
  COLLECTIONS, STATE_FORMAT, STATE_FORMAT_VERSION, emptyState,
  type Account, type ClockRecord, type Collection, type Collections, type DeepReadonly, type DirectoryEntry, type Draft,
  type LedgerDraft, type Patch, type RngState, type State, type Transaction,
} from './state.js'
import { canonicalIdempotencyKey } from '../domain/ids.js'

/**
 * The one owner of the sandbox's state, and its only write path.
 *
 * **Reading.** `data` and every lookup hand out records typed read-only all the way down.
 *
 * **Writing.** A change happens inside `transact(fn)`, a synchronous unit, through `add`, `put`,
 * `update(collection, id, fn)` (whose callback gets the record as a writable `Draft`), `remove`,
 * `nextSeq`, `replace` and the account and transaction helpers. The first time a unit touches a
 * record, the store keeps a before-image of it (a copy of plain JSON that shares its strings); if the
 * unit throws, every record it touched is put back as it was, so an operation applies whole or not
 * at all (ledger, records, sequences). A write outside a unit throws: there is no way to change state
 * that the store does not see.
 *
 * **Persisting** (`--data FILE`). The file is a base document plus an append-only journal beside it
 * (`FILE.journal-G`). Every change bumps a counter; `commit()` resolves once every change made before
 * the call is on disk (a durable watermark), so an answer never acknowledges what is not stored. A
 * write appends one JSON line per record touched since the previous write and ends the batch with
 * the sequences line, which is what makes a batch whole on replay (a batch cut short by a kill is
 * dropped: it was never acknowledged). When the journal outgrows the base, the base is rewritten
 * (temp file, rename) under the next generation in the background while appends go on to the next
 * journal; that base holds the state as far as it is durable, never a change still waiting for its
 * own write, so a compaction can neither acknowledge nor resurrect anything. Reset, import and the
 * first write of each run rewrite the base in line with the appends.
 *
 * **Pairing.** Each base carries a fresh `baseId`, and every batch's sequences line names the base its
 * journal continues (`Pairing`). Since a run's first write is a new base, a journal never continues a
 * base another run wrote: a copy of the file taken while stopped and put back later is that state, and
 * the journals written since, which no longer continue the base beside them, are set aside at open.
 *
 * **Failing.** When a write fails (disk full, permissions), every change not yet durable is rolled
 * back from the before-images, newest first: the commits waiting on it and on anything queued behind
 * it are rejected, the store reports itself degraded, and the services rebuild what they keep in
 * memory (`onRestored`). That journal is never appended to again (its tail may be torn): the next
 * write, a request's or the retry timer's, rewrites the base under a new generation, and once one
 * succeeds the store is ok again.
 */
export interface StoreOptions {
  /** Path of the JSON data file; in memory when absent. */
  file?: string
  /** Journal size (bytes) below which no compaction runs, whatever the size of the base. */
  compactionFloorBytes?: number
  /** The file system (tests inject one that fails). */
  fs?: StoreFs
  /** While degraded, the first retry of a write after this many ms (then doubling up to 30 s). */
  retryMs?: number
  /** A service failed to rebuild after a rollback (a bug: logged, never thrown into a write's failure). */
  onError?: (err: unknown) => void
}

/** How the store reads and restores the sandbox clock, which it persists but does not own. */
export interface ClockPort {
  record (): ClockRecord
  /** Puts the clock back where the last durable write left it (a failed write took a clock change back). */
  restore (record: ClockRecord): void
}

/**
 * What the store persists beside the records without owning it: the clock, and where the random
 * stream stands (written with every batch, so a restart continues it rather than repeating ids).
 */
export interface Companions {
  clock?: ClockPort
  rng?: { state (): RngState }
}

export type StoreHealth =
  | { status: 'ok' }
  | { status: 'degraded', reason: string, since: number }

/** What `open` found in the data file. */
export interface OpenResult {
  /** The file held a state (else it is a first start: the caller seeds the fixtures). */
  found: boolean
  /** The clock the state carried, when it carried one (format 1 did not). */
  clock?: ClockRecord
  /** Where the random stream stood (format 1 did not keep it). */
  rng?: RngState
  /** Written by the previous format; it is rewritten in the current one on the next write. */
  migrated: boolean
  /** The line that says which journals were set aside, not continuing the file (see `setAside`). */
  notice?: string
}

const ABSENT: unique symbol = Symbol('absent')
const SEQ = 'seq'

/**
 * How much of a record a before-image copies, by what the change may touch: a patch replaces
 * top-level fields only (a shallow copy keeps the old values, which nothing mutates), a ledger
 * operation also changes an account's balance and totals in place (copied too), any other update may
 * change anything (a deep copy). An image is deepened when a later change in its unit needs more;
 * the nested objects it still shares are as they were, since only a deeper change mutates them.
 */
const SHALLOW = 0
const LEDGER = 1
const DEEP = 2
type Depth = typeof SHALLOW | typeof LEDGER | typeof DEEP

/**
 * A before-image: what a record was when a unit (or a write period) first touched it. `collection`
 * null marks a whole-state replacement, whose image is the replaced state.
 */
interface Entry {
  record: object
  collection: Collection | typeof SEQ | null
  id: string
  image: unknown
  depth: Depth
}

type Images = Map<object, Entry>

const AsyncFunction = (async () => {}).constructor
const RESOLVED: Promise<void> = Promise.resolve()
const RETRY_MAX_MS = 30_000

/**
 * A copy of a plain JSON value: objects and arrays copied, strings and numbers shared. Faster than
 * structuredClone for the handful of small records a unit touches, which is the hot path.
 */
function copy<T> (value: T): T {
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
function restoreInto (live: Record<string, unknown>, image: Record<string, unknown>): void {
  for (const key in live) if (!(key in image)) live[key] = undefined
  for (const key in image) live[key] = copy(image[key])
}

function inner<K, V> (outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = outer.get(key)
  if (!map) outer.set(key, map = new Map())
  return map
}

/**
 * What a journal continues, written on the sequences line that ends each of its batches: the base of
 * its own generation (`base`, the id that base document carries) or, for the journal a compaction
 * started, the previous base followed by that base's journal (`after`), in case the compaction never
 * landed. A journal that names neither does not belong with the file beside it.
 */
interface Pairing { base: string, after?: string }

const isPairing = (v: unknown): v is Pairing =>
  typeof v === 'object' && v !== null && typeof (v as Pairing).base === 'string' && ['string', 'undefined'].includes(typeof (v as Pairing).after)

/** A fresh id for a base document: a copy of the file carries it too, but never the next run's journal. */
const newBaseId = (): string => randomBytes(8).toString('hex')

/** lowdb's adapter for the base document, over the store's file-system port. */
class BaseFile implements Adapter<string> {
  constructor (private readonly fs: StoreFs, private readonly file: string) {}
  async read (): Promise<string | null> { return await this.fs.stat(this.file) === null ? null : await this.fs.readFile(this.file) }
  async write (text: string): Promise<void> {
    // A temp file renamed over the base: the base is never half-written. The name is the sandbox's own.
    const temp = join(dirname(this.file), `.${basename(this.file)}.pix-sandbox-tmp`)
    try {
      await this.fs.writeFile(temp, text)
      await this.fs.rename(temp, this.file)
    } catch (err) {
      await this.fs.remove(temp).catch(() => {})
      throw err
    }
  }
}

export class Store {
  readonly persistent: boolean
  private state: State = emptyState()
  private readonly file: string | undefined
  private readonly fs: StoreFs
  private readonly base: Low<string> | null
  private readonly compactionFloorBytes: number
  private readonly retryMs: number
  private readonly onError: (err: unknown) => void
  private clock: ClockPort | null = null
  private rng: Companions['rng'] | null = null

  // ---- indexes ----
  private byClientId = new Map<string, Account>()
  private byFingerprint = new Map<string, Account>()
  private txByAccount = new Map<number, Transaction[]>()
  /**
   * Composite lookups are nested maps (owner, then the record's own string) rather than one map keyed by
   * a joined string: a joined key is one more string per record, about 100 bytes of heap each.
   */
  private txByExternalId = new Map<string, Map<string, Transaction>>()
  private txByEndToEndId = new Map<string, Transaction>()
  private txByIdempotencyKey = new Map<number, Map<string, Transaction>>()
  private txByRef = new Map<string, Transaction>()

  // ---- units ----
  /** Before-images of the units under way, innermost last (a unit inside a unit is a savepoint); null until it writes. */
  private readonly units: Array<Images | null> = []
  private readonly restoredListeners: Array<() => void> = []
  private readonly removers: Array<(accountId: number) => void> = []

  // ---- persistence ----
  /** Counts every change; `durable` is the count the disk holds. */
  private changes = 0
  private durable = 0
  /** Before-images of records touched since the last write took its changes (their durable state). */
  private pending: Images = new Map()
  private waiters: Array<{ mark: number, resolve: () => void, reject: (err: Error) => void }> = []
  private writing: Promise<void> | null = null
  private compacting: Promise<void> | null = null
  /** The next write rewrites the base: a new file, a reset or import, after a failed or torn append. */
  private rewriteNeeded = false
  /** Write once even with nothing new (the retry of a degraded store). */
  private retryWanted = false
  private generation = 0
  /** What the journal of `generation` continues (null until this run first writes a base). */
  private pairing: Pairing | null = null
  private journalBytes = 0
  private baseBytes = 0
  private clockDirty = false
  private restoringClock = false
  private durableClock: ClockRecord | null = null
  private status: StoreHealth = { status: 'ok' }
  private readonly healthListeners: Array<(health: StoreHealth) => void> = []
  private retryTimer: NodeJS.Timeout | null = null
  private retryDelay: number
  private closed = false

  constructor (opts: StoreOptions = {}) {
    this.persistent = Boolean(opts.file)
    this.file = opts.file
    this.fs = opts.fs ?? new NodeFs()
    this.compactionFloorBytes = opts.compactionFloorBytes ?? 32 * 2 ** 20
    this.retryMs = this.retryDelay = opts.retryMs ?? 1000
    this.onError = opts.onError ?? (err => process.emitWarning(`store: a rebuild after a rollback failed: ${String(err)}`))
    this.base = opts.file ? new Low<string>(new BaseFile(this.fs, opts.file), '') : null
  }

  /** The whole state, read-only. */
  get data (): DeepReadonly<State> {
    return this.state
  }

  // ---- opening -------------------------------------------------------------------------------

  /**
   * Reads the data file and its journals. A missing or empty file is a first start; anything that is
   * not a state this sandbox wrote stops the start with a StartupError and is left untouched, as is
   * every other file. The directory is created when missing and checked for writing.
   */
  async open (companions: Companions = {}): Promise<OpenResult> {
    this.clock = companions.clock ?? null
    this.rng = companions.rng ?? null
    if (!this.persistent) return { found: false, migrated: false }
    const file = this.file!
    const where = `--data ${file}`
    const leftAlone = 'the file was left untouched'
    let stat: Awaited<ReturnType<StoreFs['stat']>>
    try {
      stat = await this.fs.stat(file)
    } catch (err) {
      throw new StartupError(`${where} cannot be read (${(err as Error).message}); check the path and its permissions, or choose another file`)
    }
    if (stat?.isDirectory) throw new StartupError(`${where} is a directory; give the path of a file in it, such as ${join(file, 'state.json')}`)
    await this.checkWritable(where)

    let text = ''
    try {
      await this.base!.read()
      text = this.base!.data ?? ''
    } catch (err) {
      throw new StartupError(`${where} cannot be read (${(err as Error).message}); fix its permissions or choose another file`)
    }
    this.baseBytes = text.length
    const journals = await this.journals(where)
    if (text.trim() === '') {
      // A missing or empty file (`touch state.json` before a first start) holds no state yet. Journals
      // beside it belong to a state the file no longer holds: the first write goes past their
      // generations, and deletes them.
      this.generation = journals.reduce((max, j) => Math.max(max, j.generation), 0)
      this.rewriteNeeded = true
      return { found: false, migrated: false }
    }
    let doc: unknown
    try {
      doc = JSON.parse(text)
    } catch (err) {
      const at = jsonErrorLocation(text)
      const why = at.truncated
        ? `ends before its JSON document does (truncated at line ${at.line}, column ${at.column})`
        : `is not valid JSON (line ${at.line}, column ${at.column})`
      throw new StartupError(`${where} ${why}; ${leftAlone}. Restore it from a copy, or point --data at a new file`)
    }
    const kind = classify(doc)
    if (!kind.ok) throw this.refusal(where, kind.kind, kind.problems)
    const base = doc as Record<string, unknown>
    const baseGeneration = typeof base.journalGeneration === 'number' ? base.journalGeneration : 0
    const baseId = typeof base.baseId === 'string' ? base.baseId : null
    this.generation = baseGeneration
    // The base the next journal must continue: the file's, then the one each journal replayed continued.
    let tip = baseId
    let chained = false
    const belongs = (pairing: Pairing | null): boolean => {
      // Both written before journals named their base.
      if (baseId === null) return pairing === null
      if (pairing === null || !(pairing.base === tip || (chained && pairing.after === tip))) return false
      tip = pairing.base
      chained = true
      return true
    }
    const orphans: string[] = []
    for (const { generation, path } of journals) {
      // Older than the base: already in it (a compaction ended before the journal was deleted).
      if (generation < baseGeneration) continue
      let journal: string
      try {
        journal = await this.fs.readFile(path)
      } catch (err) {
        throw new StartupError(`${where}: its journal ${path} cannot be read (${(err as Error).message}); fix its permissions`)
      }
      if (!this.replay(base, journal, path, where, belongs)) {
        orphans.push(path)
        continue
      }
      this.generation = generation
      this.journalBytes = journal.length
    }
    const read = await readDocument(base)
    if (!read.ok) throw this.refusal(where, read.kind, read.problems)
    const notice = await this.setAside(orphans, where)
    this.state = read.state
    // A run never appends to a journal of a base it did not write: its first write rewrites the base
    // (under a new id) before any journal line. So a copy of the file taken while the sandbox is stopped
    // is never continued by a later run's journal; copied back, it is the state again. This also folds
    // in what was replayed, migrates the previous format (a start alone changes nothing on disk), and
    // never appends after a torn batch, whose garbage would sit in the middle of the journal.
    this.rewriteNeeded = true
    this.durableClock = read.clock ?? null
    this.reindex()
    // Journals older than the base are folded in it already: the sandbox's own files, and the state is accepted.
    for (const j of journals) if (j.generation < baseGeneration) await this.fs.remove(j.path).catch(() => {})
    return { found: true, migrated: read.legacy, ...(read.clock ? { clock: read.clock } : {}), ...(read.rng ? { rng: read.rng } : {}), ...(notice ? { notice } : {}) }
  }

  /**
   * Moves journals that do not continue the base beside them out of the way, under a name that says so
   * and that no start reads again: their changes were made on another copy of the file (the file was
   * replaced, e.g. restored from a backup, while they stayed). Returns the line that says what was done.
   */
  private async setAside (orphans: string[], where: string): Promise<string | undefined> {
    if (orphans.length === 0) return undefined
    const stamp = new Date().toISOString().replace(/[-:.]/g, '')
    const moved: string[] = []
    for (const path of orphans) {
      const to = `${path}.orphaned-${stamp}`
      try {
        await this.fs.rename(path, to)
      } catch (err) {
        throw new StartupError(`${where}: its journal ${path} does not continue the file, and setting it aside failed (${(err as Error).message}); move it out of the directory, or point --data at another file`)
      }
      moved.push(basename(to))
    }
    return `${where}: ${orphans.map(p => basename(p)).join(', ')} did not continue the file (the file was replaced, e.g. restored from a copy): set aside as ${moved.join(', ')}; the state is the file's`
  }

  private refusal (where: string, kind: 'foreign' | 'newer' | 'invalid', problems: string[]): StartupError {
    const leftAlone = 'the file was left untouched'
    const first = problems.slice(0, 3).join('; ')
    switch (kind) {
      case 'foreign': return new StartupError(`${where} is not a pix-sandbox state: ${first}; ${leftAlone}. Point --data at a new file or at a state the sandbox wrote`)
      case 'newer': return new StartupError(`${where}: ${first}; ${leftAlone}. Upgrade pix-sandbox, or point --data at another file`)
      default: {
        const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''
        return new StartupError(`${where} is a pix-sandbox state with problems: ${first}${more}; ${leftAlone}. Restore it from a copy, or point --data at a new file`)
      }
    }
  }

  /** Creates the directory when missing, then writes and removes a probe file of the sandbox's own name. */
  private async checkWritable (where: string): Promise<void> {
    const dir = dirname(this.file!)
    const probe = join(dir, `.${basename(this.file!)}.pix-sandbox-probe`)
    try {
      await this.fs.mkdirs(dir)
      await this.fs.writeFile(probe, '')
      await this.fs.remove(probe)
    } catch (err) {
      throw new StartupError(`${where}: the directory ${dir} cannot be written (${(err as Error).message}); create it with write permission for this user, or choose another path`)
    }
  }

  /**
   * Replays a journal over the state. Lines come in batches that end with the sequences line, which
   * names the base the journal continues: at the end of the first batch, before anything is applied,
   * `belongs` says whether it continues this one (else the replay stops, having changed nothing, and
   * returns false). A batch without its end is the tail of a write cut short (never acknowledged) and
   * is dropped. A line that is not JSON before the end means the file was damaged: the start stops.
   */
  private replay (doc: Record<string, unknown>, text: string, path: string, where: string, belongs: (pairing: Pairing | null) => boolean): boolean {
    const lines = text.split('\n')
    let batch: Array<[string, string, unknown]> = []
    let clock: unknown
    let rng: unknown
    let first = true
    const damaged = (i: number, why: string) =>
      new StartupError(`${where}: its journal ${path} has a damaged line ${i + 1} (${why}) before its end; the files were left untouched. Restore them from a copy, or point --data at a new file`)
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] === '') continue
      let entry: unknown
      try {
        entry = JSON.parse(lines[i])
      } catch {
        // A kill in the middle of an append tears the last line; that batch was never acknowledged.
        if (lines.slice(i + 1).every(l => l === '')) return true
        throw damaged(i, 'not JSON')
      }
      if (!Array.isArray(entry) || entry.length < 3 || entry.length > (entry[0] === SEQ ? 4 : 3)) throw damaged(i, 'not a journal entry')
      const [name, id, value, pairing] = entry as [string, string | null, unknown, unknown]
      if (name === SEQ) {
        if (first && !belongs(isPairing(pairing) ? pairing : null)) return false
        first = false
        for (const [collection, recordId, record] of batch) {
          const records = (doc[collection] ??= {}) as Record<string, unknown>
          if (typeof records !== 'object' || records === null) continue // the validation after replay says what is wrong
          if (record === null) delete records[recordId]
          else records[recordId] = record
        }
        doc.seq = value
        if (clock !== undefined) doc.clock = clock
        if (rng !== undefined) doc.rng = rng
        batch = []
        clock = undefined
        rng = undefined
      } else if (name === 'clock') {
        clock = value
      } else if (name === 'rng') {
        rng = value
      } else if ((COLLECTIONS as readonly string[]).includes(name) && typeof id === 'string') {
        batch.push([name, id, value])
      } else {
        throw damaged(i, 'names no known record')
      }
    }
    return true
  }

  private journalPath (generation: number): string {
    return `${this.file!}.journal-${generation}`
  }

  /** The journal files beside the data file, oldest generation first. */
  private async journals (where?: string): Promise<Array<{ generation: number, path: string }>> {
    const dir = dirname(this.file!)
    const prefix = `${basename(this.file!)}.journal-`
    let names: string[]
    try {
      names = await this.fs.readdir(dir)
    } catch (err) {
      if (where) throw new StartupError(`${where}: the directory ${dir} cannot be listed (${(err as Error).message}); fix its permissions`)
      throw err
    }
    return names
      .filter(n => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map(n => ({ generation: Number(n.slice(prefix.length)), path: join(dir, n) }))
      .sort((a, b) => a.generation - b.generation)
  }

  // ---- units ---------------------------------------------------------------------------------

  /**
   * Runs `fn` as one unit: if it throws, everything it changed is put back and the error goes on.
   * `fn` must be synchronous (an await would let another request see, and commit, half of it), so an
   * async function is refused. A unit inside a unit is a savepoint: the inner one can fail alone.
   */
  transact<T> (fn: () => T): T {
    if (fn.constructor === AsyncFunction) throw new TypeError('store.transact takes a synchronous function: no await between the first write and the last')
    const depth = this.units.length
    this.units.push(null)
    let result: T
    try {
      result = fn()
    } catch (err) {
      const unit = this.units.pop()
      if (unit) this.undo(unit)
      throw err
    }
    const unit = this.units.pop()
    if (result instanceof Promise) {
      if (unit) this.undo(unit)
      throw new TypeError('store.transact takes a synchronous function: it returned a promise')
    }
    if (unit && depth > 0) {
      const parent = this.units[depth - 1]
      // An outer unit that touched nothing yet takes the inner one's images as they are (no copy, no
      // second map: a settlement is a unit inside the scheduler's). Otherwise it keeps its own image
      // where it has one (older, and deep enough: see touch).
      if (!parent) this.units[depth - 1] = unit
      else for (const [record, entry] of unit) if (!parent.has(record)) parent.set(record, entry)
    }
    return result
  }

  /**
   * A unit outside a request (a scheduled job, the result of a webhook attempt): applied at once and
   * written in the background. A failed write rolls it back like any other; nobody waits for an answer.
   */
  unit<T> (fn: () => T): T {
    const result = this.transact(fn)
    if (this.persistent) this.commit().catch(() => {})
    return result
  }

  /** Whether a change is not on disk yet (false in memory mode, where there is no disk). */
  hasUndurableChanges (): boolean {
    return this.persistent && this.durable < this.changes
  }

  /** Called after a rollback put records back: whoever keeps state derived from the store rebuilds it. */
  onRestored (listener: () => void): void {
    this.restoredListeners.push(listener)
  }

  /**
   * Records what `record` is before its first change in the current unit and in the current write
   * period (its durable state). `image` is given when the caller has it already (a replaced state).
   */
  private touch (record: object, collection: Entry['collection'], id: string, exists: boolean, depth: Depth = DEEP, image?: unknown): void {
    const top = this.units.length - 1
    if (top < 0) throw new Error(`store: a change to ${collection ?? 'the state'} outside store.transact`)
    const unit = this.units[top] ?? (this.units[top] = new Map())
    this.changes++
    let entry: Entry | undefined
    const inUnit = unit.get(record)
    if (inUnit === undefined) {
      entry = this.entry(record, collection, id, exists, depth, image)
      unit.set(record, entry)
    } else if (inUnit.depth < depth) {
      this.deepen(inUnit, depth)
    }
    // The images of the enclosing units share nested objects with the record too: a change that edits
    // them in place must find every image deep enough first.
    if (depth !== SHALLOW) {
      for (let i = 0; i < top; i++) {
        const outer = this.units[i]?.get(record)
        if (outer !== undefined && outer.depth < depth) this.deepen(outer, depth)
      }
    }
    if (!this.persistent) return
    const inPeriod = this.pending.get(record)
    // A unit and a write period can share an entry made at the same moment: it images the same state.
    if (inPeriod === undefined) this.pending.set(record, entry ?? this.entry(record, collection, id, exists, depth, image))
    else if (inPeriod.depth < depth) this.deepen(inPeriod, depth)
  }

  private entry (record: object, collection: Entry['collection'], id: string, exists: boolean, depth: Depth, image?: unknown): Entry {
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
  private deepen (entry: Entry, depth: Depth): void {
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

  /** Rolls back a failed unit. */
  private undo (unit: Images): void {
    if (unit.size === 0) return
    this.restore([...unit.values()].reverse())
  }

  /** Puts records back from before-images, newest first, then rebuilds indexes and derived state. */
  private restore (entries: Entry[]): void {
    for (const e of entries) {
      if (e.collection === null) {
        this.state = e.image as State
      } else if (e.collection === SEQ) {
        restoreInto(e.record as Record<string, unknown>, e.image as Record<string, unknown>)
      } else if (e.image === ABSENT) {
        const records = this.state[e.collection] as Record<string, object>
        if (records[e.id] === e.record) delete records[e.id]
      } else {
        // In place, so whoever holds the record (an index, a request under way) sees it restored.
        restoreInto(e.record as Record<string, unknown>, e.image as Record<string, unknown>)
        ;(this.state[e.collection] as Record<string, object>)[e.id] = e.record
      }
    }
    this.reindex()
    // The services rebuild inside a unit of their own: a rebuild may repair a record (and must be able to).
    for (const listener of this.restoredListeners) {
      try {
        this.transact(listener)
      } catch (err) {
        this.onError(err)
      }
    }
  }

  // ---- writing records -----------------------------------------------------------------------

  /** Adds a record under its id; an id already taken is a bug (it would overwrite a record). */
  add<C extends Exclude<Collection, 'accounts' | 'transactions'>> (collection: C, record: Collections[C]): Collections[C] {
    const id = this.keyOf(collection, record)
    if (ownRecord(this.state[collection] as Record<string, unknown>, id) !== undefined) throw new Error(`store: ${collection}/${id} exists already`)
    return this.put(collection, record)
  }

  /** Adds or replaces a record under its id. */
  put<C extends Exclude<Collection, 'accounts' | 'transactions'>> (collection: C, record: Collections[C]): Collections[C] {
    const id = this.keyOf(collection, record)
    const records = this.state[collection] as Record<string, object>
    const previous = ownRecord(records, id)
    if (previous !== undefined) this.touch(previous, collection, id, true, SHALLOW)
    this.touch(record, collection, id, false)
    records[id] = record
    return record
  }

  /**
   * Changes one record: `fn` gets it writable (a Draft) and returns whatever the caller wants back.
   * Throws when the record does not exist.
   */
  update<C extends Collection, R> (collection: C, id: string | number, fn: (draft: Draft<Collections[C]>) => R): R {
    return this.change(collection, id, DEEP, fn as (draft: object) => R)
  }

  /**
   * Changes top-level fields of one record: `fn` gets it with those writable and everything nested
   * read-only (a new array or object replaces the old one). Cheaper to roll back than `update`, so it
   * is what the hot paths (a settlement, a delivery attempt) use.
   */
  patch<C extends Collection, R> (collection: C, id: string | number, fn: (draft: Patch<Collections[C]>) => R): R {
    return this.change(collection, id, SHALLOW, fn as (draft: object) => R)
  }

  /** Moves money on an account: `fn` gets its balance and totals, as the ledger functions take them. */
  ledger<R> (accountId: number, fn: (account: LedgerDraft) => R): R {
    return this.change('accounts', accountId, LEDGER, fn as (draft: object) => R)
  }

  private change<R> (collection: Collection, id: string | number, depth: Depth, fn: (draft: object) => R): R {
    const key = String(id)
    const record = ownRecord(this.state[collection] as Record<string, object>, key)
    if (record === undefined) throw new Error(`store: ${collection}/${key} does not exist`)
    this.touch(record, collection, key, true, depth)
    if (collection !== 'transactions') return fn(record)
    const tx = record as Transaction
    const endToEndId = tx.endToEndId
    const result = fn(record)
    if (tx.endToEndId !== endToEndId && tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
    return result
  }

  /** Removes a record; false when there was none. Accounts go with `removeAccount`, transactions with their account. */
  remove (collection: Exclude<Collection, 'accounts' | 'transactions'>, id: string | number): boolean {
    const key = String(id)
    const records = this.state[collection] as Record<string, object>
    const record = ownRecord(records, key)
    if (record === undefined) return false
    // Shallow: a removed record is never changed again, so its nested objects stay as they are.
    this.touch(record, collection, key, true, SHALLOW)
    delete records[key]
    return true
  }

  /** The next number of a sequence (ids of accounts, transactions, MEDs...). */
  nextSeq (name: string): number {
    const seq = this.state.seq
    this.touch(seq, SEQ, '', true, SHALLOW)
    seq[name] = (seq[name] ?? 0) + 1
    return seq[name]
  }

  /** What `nextSeq(name)` would return, without taking it. */
  peekSeq (name: string): number {
    return (this.state.seq[name] ?? 0) + 1
  }

  /** Makes sure the sequence hands out nothing at or below `value` (ids the fixtures use). */
  raiseSeq (name: string, value: number): void {
    if ((this.state.seq[name] ?? 0) >= value) return
    this.touch(this.state.seq, SEQ, '', true, SHALLOW)
    this.state.seq[name] = value
  }

  /** Replaces the whole state (reset, snapshot import); the next write rewrites the base. */
  replace (state: DeepReadonly<State>): void {
    // The replaced state itself is the image: nothing changes it once it is no longer live.
    this.touch({}, null, '', true, DEEP, this.state)
    // A copy, of the collections only: the caller keeps its document, and stray keys stay out.
    const next = emptyState()
    next.seq = { ...state.seq }
    for (const collection of COLLECTIONS) if (state[collection]) (next as Record<string, unknown>)[collection] = structuredClone(state[collection])
    this.state = next
    if (this.persistent) this.rewriteNeeded = true
    this.reindex()
  }

  private keyOf (collection: Collection, record: unknown): string {
    return String(collection === 'directory' ? (record as DirectoryEntry).key : (record as { id: string | number }).id)
  }

  // ---- the clock ----------------------------------------------------------------------------

  /** The sandbox clock moved (set, advance, freeze, resume): the next write records it. */
  clockChanged (): void {
    if (!this.persistent || this.restoringClock) return
    this.clockDirty = true
    this.changes++
  }

  // ---- committing -----------------------------------------------------------------------------

  /**
   * Resolves once every change made before the call is on disk; rejects if the write failed (and the
   * changes were rolled back). Resolves at once in memory mode, or when there is nothing new.
   */
  commit (): Promise<void> {
    if (!this.persistent || this.durable >= this.changes) return RESOLVED
    const promise = new Promise<void>((resolve, reject) => { this.waiters.push({ mark: this.changes, resolve, reject }) })
    this.startWriting()
    return promise
  }

  /** Resolves once every change made so far is on disk (what a webhook attempt waits for before it goes out). */
  whenDurable (): Promise<void> {
    return this.commit()
  }

  /** Resolves when every commit so far, and any compaction under way, is on disk. */
  async flush (): Promise<void> {
    await this.commit()
    while (this.writing || this.compacting) {
      await this.writing
      await this.compacting
    }
  }

  /**
   * At a graceful stop: everything on disk, folded into the base, so the data file alone holds the
   * whole state again (people copy it, commit it as a fixture, or read it) and the next start replays
   * nothing.
   */
  async close (): Promise<void> {
    this.closed = true
    this.stopRetrying()
    if (!this.persistent) return
    try {
      await this.flush()
      if (this.journalBytes > 0 || this.status.status === 'degraded') {
        this.rewriteNeeded = true
        this.retryWanted = true
        this.startWriting()
        await this.flush()
      }
    } finally {
      this.fs.close?.()
    }
  }

  /** ok, or degraded with the reason (a write failed, and none has succeeded since). */
  health (): StoreHealth {
    return this.status
  }

  /** Tells `listener` when the store becomes degraded or ok again. */
  onHealthChange (listener: (health: StoreHealth) => void): void {
    this.healthListeners.push(listener)
  }

  private startWriting (): void {
    this.writing ??= this.writeLoop()
  }

  private async writeLoop (): Promise<void> {
    // Never serialise inside the caller's synchronous code: a unit under way is not whole yet. And
    // not before the event loop's turn has read every request already waiting: one write then
    // carries all of their changes (and the account they share once), not one write each.
    await new Promise(resolve => setImmediate(resolve))
    try {
      while ((this.waiters.length > 0 && this.durable < this.changes) || this.retryWanted) {
        this.retryWanted = false
        await this.writeOnce()
      }
    } finally {
      this.writing = null
    }
  }

  /** Takes every change so far into one write: an append, or a rewrite of the base. */
  private async writeOnce (): Promise<void> {
    if (this.rewriteNeeded) await this.compacting
    const upTo = this.changes
    const taken = this.pending
    this.pending = new Map()
    const clock = this.clockDirty || this.rewriteNeeded ? this.clock?.record() : undefined
    this.clockDirty = false
    try {
      if (this.rewriteNeeded) {
        this.rewriteNeeded = false
        const generation = this.generation + 1
        const id = newBaseId()
        await this.writeBase(this.document(generation, id, clock ?? this.durableClock), generation)
        this.pairing = { base: id }
      } else {
        const text = this.journalLines(taken, clock)
        await this.fs.appendFile(this.journalPath(this.generation), text)
        this.journalBytes += text.length
      }
    } catch (err) {
      this.failed(err as Error, taken)
      return
    }
    this.durable = upTo
    if (clock) this.durableClock = clock
    const done = this.waiters.filter(w => w.mark <= upTo)
    this.waiters = this.waiters.filter(w => w.mark > upTo)
    for (const w of done) w.resolve()
    if (this.status.status === 'degraded') this.setHealth({ status: 'ok' })
    if (!this.compacting && !this.rewriteNeeded && this.journalBytes > Math.max(this.compactionFloorBytes, this.baseBytes)) this.compactInBackground()
  }

  /**
   * A write failed: every change not on disk is rolled back, newest first (the changes made while it
   * was under way, then its own), and everyone waiting for them is told.
   */
  private failed (err: Error, taken: Images): void {
    const entries = [...[...this.pending.values()].reverse(), ...[...taken.values()].reverse()]
    this.pending = new Map()
    this.rewriteNeeded = true
    this.clockDirty = false
    if (this.durableClock && this.clock) {
      this.restoringClock = true
      try { this.clock.restore(this.durableClock) } finally { this.restoringClock = false }
    }
    this.restore(entries)
    // Everything counted so far is rolled back. What the services repaired while rebuilding (a
    // delivery's next attempt) is written by the next write, a full rewrite; it blocks no answer
    // meanwhile, since losing it loses nothing a client was told.
    this.durable = this.changes
    const waiting = this.waiters
    this.waiters = []
    const reason = `writing ${this.file!} failed: ${err.message}`
    for (const w of waiting) w.reject(new StoreWriteError(reason))
    if (this.status.status === 'ok') this.setHealth({ status: 'degraded', reason, since: Date.now() })
    else this.status = { status: 'degraded', reason, since: this.status.since }
    this.scheduleRetry()
  }

  private setHealth (health: StoreHealth): void {
    this.status = health
    if (health.status === 'ok') {
      this.stopRetrying()
      this.retryDelay = this.retryMs
    }
    for (const listener of this.healthListeners) listener(health)
  }

  /** While degraded, a rewrite is tried again now and then, so the store recovers without traffic. */
  private scheduleRetry (): void {
    if (this.retryTimer || this.closed) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (this.status.status === 'ok' || this.closed) return
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS)
      this.retryWanted = true
      this.startWriting()
      // A failed retry schedules the next one.
    }, this.retryDelay)
    this.retryTimer.unref()
  }

  private stopRetrying (): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
  }

  /** The journal lines of every record touched since the last write, then the clock, then the sequences. */
  private journalLines (taken: Images, clock: ClockRecord | undefined): string {
    let text = ''
    const seen = new Set<string>()
    for (const e of taken.values()) {
      if (e.collection === null || e.collection === SEQ) continue
      const key = `${e.collection}\u0000${e.id}`
      if (seen.has(key)) continue
      seen.add(key)
      const records = this.state[e.collection] as Record<string, unknown>
      text += JSON.stringify([e.collection, e.id, records[e.id] ?? null]) + '\n'
    }
    if (clock) text += JSON.stringify(['clock', null, clock]) + '\n'
    if (this.rng) text += JSON.stringify(['rng', null, this.rng.state()]) + '\n'
    // The sequences change with almost every new record; a few bytes, and they close the batch with
    // the base the journal continues.
    return text + JSON.stringify([SEQ, null, this.state.seq, this.pairing]) + '\n'
  }

  /** The whole live state as the base document of `generation`. */
  private document (generation: number, id: string, clock: ClockRecord | null | undefined): string {
    return JSON.stringify({ format: STATE_FORMAT, formatVersion: STATE_FORMAT_VERSION, journalGeneration: generation, baseId: id, ...(clock ? { clock } : {}), ...this.companionsNow(), ...this.state })
  }

  /**
   * The base document of the state as far as it is durable: the live records, except those touched
   * since the last write, which are taken from their before-images (a record added since is left
   * out, one removed since is kept). So a compaction running beside the appends holds exactly what
   * the disk already held, whatever happens to the changes still waiting.
   */
  private durableDocument (generation: number, id: string): string {
    const overrides = new Map<Collection, Map<string, unknown>>()
    let seq: unknown = this.state.seq
    let seqTaken = false
    for (const e of this.pending.values()) {
      if (e.collection === null) continue
      if (e.collection === SEQ) {
        if (!seqTaken) { seq = e.image; seqTaken = true }
        continue
      }
      const byId = inner(overrides, e.collection)
      if (!byId.has(e.id)) byId.set(e.id, e.image)
    }
    let text = `{"format":${JSON.stringify(STATE_FORMAT)},"formatVersion":${STATE_FORMAT_VERSION},"journalGeneration":${generation},"baseId":${JSON.stringify(id)}`
    if (this.durableClock) text += `,"clock":${JSON.stringify(this.durableClock)}`
    // The random stream as it stands now: ahead of every id already durable, which is all it must be.
    if (this.rng) text += `,"rng":${JSON.stringify(this.rng.state())}`
    text += `,"seq":${JSON.stringify(seq)}`
    for (const collection of COLLECTIONS) {
      const records = this.state[collection] as Record<string, unknown>
      const byId = overrides.get(collection)
      if (!byId) {
        text += `,${JSON.stringify(collection)}:${JSON.stringify(records)}`
        continue
      }
      const parts: string[] = []
      for (const id in records) if (!byId.has(id)) parts.push(`${JSON.stringify(id)}:${JSON.stringify(records[id])}`)
      for (const [id, image] of byId) if (image !== ABSENT) parts.push(`${JSON.stringify(id)}:${JSON.stringify(image)}`)
      text += `,${JSON.stringify(collection)}:{${parts.join(',')}}`
    }
    return text + '}'
  }

  /** Writes a base document and deletes the journals it contains. */
  private async writeBase (text: string, generation: number): Promise<void> {
    this.base!.data = text
    await this.base!.write()
    const previous = this.generation
    this.generation = Math.max(this.generation, generation)
    this.baseBytes = text.length
    if (this.generation === generation && previous < generation) this.journalBytes = 0
    for (const j of await this.journals().catch(() => [])) {
      if (j.generation < generation) await this.fs.remove(j.path).catch(() => {})
    }
  }

  /**
   * Folds the journal into a new base while the appends go on to the next journal. The document is
   * taken now, synchronously, from what is durable; if the process dies before the rename, the old
   * base and both journals still hold everything.
   */
  private compactInBackground (): void {
    const generation = this.generation + 1
    const id = newBaseId()
    const text = this.durableDocument(generation, id)
    this.generation = generation
    // Its journal continues the new base, or, should that never land, the previous one and its journal.
    this.pairing = { base: id, ...(this.pairing ? { after: this.pairing.base } : {}) }
    this.journalBytes = 0
    this.compacting = this.writeBase(text, generation)
      // A failed compaction loses nothing (the journals hold it all); the next one will try again.
      .catch(() => {})
      .finally(() => { this.compacting = null })
  }

  // ---- accounts -------------------------------------------------------------------------------

  account (id: number): Account | undefined {
    return this.state.accounts[id]
  }

  accounts (): Account[] {
    return Object.values(this.state.accounts)
  }

  accountByClientId (clientId: string): Account | undefined {
    return this.byClientId.get(clientId)
  }

  accountByFingerprint (fingerprint: string): Account | undefined {
    return this.byFingerprint.get(fingerprint)
  }

  addAccount (account: Account): Account {
    const key = String(account.id)
    if (ownRecord(this.state.accounts, key) !== undefined) throw new Error(`store: accounts/${key} exists already`)
    this.touch(account, 'accounts', key, false)
    this.state.accounts[key] = account
    this.indexAccount(account)
    return account
  }

  linkCertificate (accountId: number, fingerprint: string): void {
    this.update('accounts', accountId, a => {
      if (!a.certificateFingerprints.includes(fingerprint)) a.certificateFingerprints.push(fingerprint)
    })
    this.byFingerprint.set(fingerprint, this.state.accounts[accountId])
  }

  /** Removes an account and everything that belongs to it (its owners' records through `onAccountRemoved`). */
  removeAccount (id: number): void {
    const key = String(id)
    const account = this.state.accounts[key]
    if (!account) return
    this.touch(account, 'accounts', key, true, SHALLOW)
    delete this.state.accounts[key]
    for (const tx of this.txByAccount.get(id) ?? []) {
      this.touch(tx, 'transactions', tx.id, true, SHALLOW)
      delete this.state.transactions[tx.id]
    }
    for (const hook of this.removers) hook(id)
    // Several collections at once, and rare: the next write rewrites the base rather than journal each.
    if (this.persistent) this.rewriteNeeded = true
    this.reindex()
  }

  /** Lets the owner of another collection drop an account's records when the account is removed. */
  onAccountRemoved (remove: (accountId: number) => void): void {
    this.removers.push(remove)
  }

  // ---- transactions ---------------------------------------------------------------------------

  transaction (id: string): Transaction | undefined {
    return ownRecord(this.state.transactions, id)
  }

  transactionsOf (accountId: number): readonly Transaction[] {
    return this.txByAccount.get(accountId) ?? []
  }

  /** externalId is unique per account within one family of operations (`scope`, e.g. "cash-out"). */
  transactionByExternalId (accountId: number, scope: string, externalId: string): Transaction | undefined {
    return this.txByExternalId.get(`${accountId}\u0000${scope}`)?.get(externalId)
  }

  transactionByEndToEndId (endToEndId: string): Transaction | undefined {
    return this.txByEndToEndId.get(endToEndId)
  }

  /** By the key's canonical form, whatever case it was given or stored in (a state written before keys were canonical). */
  transactionByIdempotencyKey (accountId: number, key: string): Transaction | undefined {
    return this.txByIdempotencyKey.get(accountId)?.get(canonicalIdempotencyKey(key))
  }

  /**
   * Adds a transaction; with `externalIdScope` its externalId is looked up within that scope. `refs`
   * are the other names it is found by (see `transactionByRef`).
   */
  addTransaction<T extends Transaction> (tx: T, externalIdScope?: string, refs?: readonly string[]): T {
    if (ownRecord(this.state.transactions, tx.id) !== undefined) throw new Error(`store: transactions/${tx.id} exists already`)
    const record = tx as Draft<Transaction>
    if (externalIdScope !== undefined && tx.externalId) record.data.externalIdScope = externalIdScope
    if (refs && refs.length > 0) record.data.refs = [...refs]
    this.touch(tx, 'transactions', tx.id, false)
    this.state.transactions[tx.id] = tx
    this.indexTransaction(tx)
    return tx
  }

  /**
   * Other lookups a capability needs (a cob by txid, a charge by its QR location, a refund by rtrId):
   * the transaction lists its refs in `data.refs`, and the store indexes them on add and on load.
   */
  transactionByRef (ref: string): Transaction | undefined {
    return this.txByRef.get(ref)
  }

  addRef (txId: string, ref: string): void {
    this.update('transactions', txId, tx => {
      const refs = tx.data.refs ?? []
      if (!refs.includes(ref)) tx.data.refs = refs.concat(ref)
    })
    this.txByRef.set(ref, this.state.transactions[txId])
  }

  // ---- directory ------------------------------------------------------------------------------

  directoryEntry (key: string): DirectoryEntry | undefined {
    return ownRecord(this.state.directory, key)
  }

  // ---- exporting ------------------------------------------------------------------------------

  /**
   * The whole state as one document (a snapshot export), detached from the live records. Without the
   * random stream: an export describes the state, and exporting it again after any request that drew
   * a number (a token's id) gives the same document.
   */
  snapshot (): DeepReadonly<State> & { format: typeof STATE_FORMAT, formatVersion: typeof STATE_FORMAT_VERSION, clock?: ClockRecord } {
    const clock = this.clock?.record()
    return { format: STATE_FORMAT, formatVersion: STATE_FORMAT_VERSION, ...(clock ? { clock } : {}), ...structuredClone(this.state) }
  }

  private companionsNow (): { rng?: RngState } {
    return this.rng ? { rng: this.rng.state() } : {}
  }

  // ---- indexes --------------------------------------------------------------------------------

  private reindex (): void {
    this.byClientId.clear()
    this.byFingerprint.clear()
    this.txByAccount.clear()
    this.txByExternalId.clear()
    this.txByEndToEndId.clear()
    this.txByIdempotencyKey.clear()
    this.txByRef.clear()
    for (const account of Object.values(this.state.accounts)) this.indexAccount(account)
    for (const tx of Object.values(this.state.transactions)) this.indexTransaction(tx)
  }

  private indexAccount (account: Account): void {
    this.byClientId.set(account.clientId, account)
    for (const fp of account.certificateFingerprints) this.byFingerprint.set(fp, account)
  }

  private indexTransaction (tx: Transaction): void {
    let list = this.txByAccount.get(tx.accountId)
    if (!list) this.txByAccount.set(tx.accountId, list = [])
    list.push(tx)
    const scope = tx.data.externalIdScope
    if (tx.externalId && typeof scope === 'string') inner(this.txByExternalId, `${tx.accountId}\u0000${scope}`).set(tx.externalId, tx)
    if (tx.endToEndId) this.txByEndToEndId.set(tx.endToEndId, tx)
    if (tx.idempotencyKey) inner(this.txByIdempotencyKey, tx.accountId).set(canonicalIdempotencyKey(tx.idempotencyKey), tx)
    const refs = tx.data.refs
    if (Array.isArray(refs)) for (const ref of refs) this.txByRef.set(ref, tx)
  }
}

/** A record of a collection by id: only its own keys, never one inherited (`constructor`, `__proto__`). */
export function ownRecord<V> (records: Readonly<Record<string, V>>, id: string): V | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined
}

/** A commit whose write failed: its changes were rolled back. */
export class StoreWriteError extends Error {
  readonly code = 'STORE_WRITE_FAILED'
  override readonly name = 'StoreWriteError'
}
