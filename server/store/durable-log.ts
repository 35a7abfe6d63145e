import type { Low } from 'lowdb'
import { journalPath, listJournals, newBaseId, type DataFile, type Pairing } from './data-file.js'
import type { StoreFs } from './fs.js'
import type { Opened } from './opening.js'
import type { Repository } from './repository.js'
import { inner } from './repository.js'
import { COLLECTIONS, STATE_FORMAT, STATE_FORMAT_VERSION, type ClockRecord, type Collection, type RngState } from './state.js'
import { ABSENT, SEQ, deepen, imageOf, type Depth, type Entry, type Images } from './units.js'

/**
 * The durable log of `--data FILE`: a base document plus an append-only journal beside it
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
 * back from the before-images, newest first (`rollBack`, the store's): the commits waiting on it and
 * on anything queued behind it are rejected and the store reports itself degraded. That journal is
 * never appended to again (its tail may be torn): the next write, a request's or the retry timer's,
 * rewrites the base under a new generation, and once one succeeds the store is ok again.
 */

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

/** A commit whose write failed: its changes were rolled back. */
export class StoreWriteError extends Error {
  readonly code = 'STORE_WRITE_FAILED'
  override readonly name = 'StoreWriteError'
}

export interface DurableLogOptions extends DataFile {
  repository: Repository
  compactionFloorBytes: number
  retryMs: number
  /** Puts records back from their before-images, newest first (a failed write's changes). */
  rollBack: (entries: Entry[]) => void
}

const RESOLVED: Promise<void> = Promise.resolve()
const RETRY_MAX_MS = 30_000

export class DurableLog {
  private readonly file: string
  private readonly fs: StoreFs
  private readonly base: Low<string>
  private readonly repository: Repository
  private readonly compactionFloorBytes: number
  private readonly retryMs: number
  private readonly rollBack: (entries: Entry[]) => void
  private clock: ClockPort | null = null
  private rng: Companions['rng'] | null = null

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

  constructor (opts: DurableLogOptions) {
    this.file = opts.file
    this.fs = opts.fs
    this.base = opts.base
    this.repository = opts.repository
    this.compactionFloorBytes = opts.compactionFloorBytes
    this.retryMs = this.retryDelay = opts.retryMs
    this.rollBack = opts.rollBack
  }

  /**
   * Takes over where the files opened stand. A run never appends to a journal of a base it did not
   * write: its first write rewrites the base (under a new id) before any journal line. So a copy of
   * the file taken while the sandbox is stopped is never continued by a later run's journal; copied
   * back, it is the state again. This also folds in what was replayed, migrates the previous format (a
   * start alone changes nothing on disk), and never appends after a torn batch.
   */
  resume (opened: Opened, companions: Companions): void {
    this.clock = companions.clock ?? null
    this.rng = companions.rng ?? null
    this.generation = opened.generation
    this.journalBytes = opened.journalBytes
    this.baseBytes = opened.baseBytes
    this.durableClock = opened.durableClock
    this.rewriteNeeded = true
  }

  /** Keeps what `record` was before its first change since the last write took the changes (its durable state). */
  note (record: object, entry: Entry | undefined, collection: Entry['collection'], id: string, exists: boolean, depth: Depth, image?: unknown): void {
    this.changes++
    const inPeriod = this.pending.get(record)
    // A unit and a write period can share an entry made at the same moment: it images the same state.
    if (inPeriod === undefined) this.pending.set(record, entry ?? imageOf(record, collection, id, exists, depth, image))
    else if (inPeriod.depth < depth) deepen(inPeriod, depth)
  }

  /** The next write rewrites the base (a replaced state; several collections changed at once). */
  rewrite (): void {
    this.rewriteNeeded = true
  }

  /** The sandbox clock moved (set, advance, freeze, resume): the next write records it. */
  clockChanged (): void {
    if (this.restoringClock) return
    this.clockDirty = true
    this.changes++
  }

  hasUndurableChanges (): boolean {
    return this.durable < this.changes
  }

  commit (): Promise<void> {
    if (this.durable >= this.changes) return RESOLVED
    const promise = new Promise<void>((resolve, reject) => { this.waiters.push({ mark: this.changes, resolve, reject }) })
    this.startWriting()
    return promise
  }

  async flush (): Promise<void> {
    await this.commit()
    while (this.writing || this.compacting) {
      await this.writing
      await this.compacting
    }
  }

  async close (): Promise<void> {
    this.closed = true
    this.stopRetrying()
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

  health (): StoreHealth {
    return this.status
  }

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
        await this.fs.appendFile(journalPath(this.file, this.generation), text)
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
    this.rollBack(entries)
    // Everything counted so far is rolled back. What the services repaired while following the
    // rollback (a delivery's next attempt) is written by the next write, a full rewrite; it blocks no
    // answer meanwhile, since losing it loses nothing a client was told.
    this.durable = this.changes
    const waiting = this.waiters
    this.waiters = []
    const reason = `writing ${this.file} failed: ${err.message}`
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
    const state = this.repository.state
    let text = ''
    const seen = new Set<string>()
    for (const e of taken.values()) {
      if (e.collection === null || e.collection === SEQ) continue
      const key = `${e.collection}\u0000${e.id}`
      if (seen.has(key)) continue
      seen.add(key)
      const records = state[e.collection] as Record<string, unknown>
      text += JSON.stringify([e.collection, e.id, records[e.id] ?? null]) + '\n'
    }
    if (clock) text += JSON.stringify(['clock', null, clock]) + '\n'
    if (this.rng) text += JSON.stringify(['rng', null, this.rng.state()]) + '\n'
    // The sequences change with almost every new record; a few bytes, and they close the batch with
    // the base the journal continues.
    return text + JSON.stringify([SEQ, null, state.seq, this.pairing]) + '\n'
  }

  /** The whole live state as the base document of `generation`. */
  private document (generation: number, id: string, clock: ClockRecord | null | undefined): string {
    return JSON.stringify({ format: STATE_FORMAT, formatVersion: STATE_FORMAT_VERSION, journalGeneration: generation, baseId: id, ...(clock ? { clock } : {}), ...(this.rng ? { rng: this.rng.state() } : {}), ...this.repository.state })
  }

  /**
   * The base document of the state as far as it is durable: the live records, except those touched
   * since the last write, which are taken from their before-images (a record added since is left
   * out, one removed since is kept). So a compaction running beside the appends holds exactly what
   * the disk already held, whatever happens to the changes still waiting.
   */
  private durableDocument (generation: number, id: string): string {
    const state = this.repository.state
    const overrides = new Map<Collection, Map<string, unknown>>()
    let seq: unknown = state.seq
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
      const records = state[collection] as Record<string, unknown>
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
    this.base.data = text
    await this.base.write()
    const previous = this.generation
    this.generation = Math.max(this.generation, generation)
    this.baseBytes = text.length
    if (this.generation === generation && previous < generation) this.journalBytes = 0
    for (const j of await listJournals(this.fs, this.file).catch(() => [])) {
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
}
