import type { Clock } from './clock.js'

/**
 * One scheduler for everything that happens later: settlement, webhook attempts, charge expiry,
 * split payouts. Jobs run in due order against the sandbox clock. While the clock runs, a single
 * real timer is armed for the earliest job, against the clock as it stands: every move of the clock
 * (advance, set, freeze, resume, a restore) arms it again. Advancing the clock runs every job that
 * became due, each seeing the clock at its own due instant, before the advance returns; a long run of
 * jobs yields to the event loop every few milliseconds, so other requests are answered meanwhile.
 */
export type JobRun = () => void | Promise<void>

const FIRST_WAIT_MS = 1000
const LONGEST_WAIT_MS = 60 * 60_000
/** How long a drain runs jobs before it lets the event loop answer other requests (docs/reliability.md, "A long jump of the clock"). */
const SLICE_MS = 10

export interface Job {
  readonly id: number
  dueAt: number
  readonly kind: string
  /** The record and purpose it is for (`at`'s key): a later job of the same key replaces it. */
  readonly key: string | undefined
  readonly run: JobRun
  cancelled: boolean
}

export interface SchedulerOptions {
  clock: Clock
  onError?: (err: unknown, job: Job) => void
  /**
   * How a job runs: the app runs each one as a unit of the store, written when it ends (one commit
   * point per job, so no job commits by hand).
   */
  runJob?: (run: JobRun, job: Job) => void | Promise<void>
}

export class Scheduler {
  private readonly clock: Clock
  private readonly onError: (err: unknown, job: Job) => void
  private heap: Job[] = []
  /** Cancelled jobs still in the heap: pending() is the heap's length less these. */
  private cancelled = 0
  /** The pending job of each key (one job per record and purpose). */
  private readonly byKey = new Map<string, Job>()
  /** Jobs in the heap, so that cancelling one that already ran counts nothing. */
  private readonly queued = new WeakSet<Job>()
  private seq = 0
  private timer: NodeJS.Timeout | null = null
  /** The due instant the timer is armed for, on the clock as it stood when it was armed. */
  private timerDueAt = Infinity
  private draining: Promise<void> | null = null
  /** Moves of the clock, one after another (move()). */
  private moving: Promise<unknown> = Promise.resolve()
  /** Bumped by clear() and close(): a drain under way stops, its jobs forgotten with the state. */
  private generation = 0
  private closed = false
  private paused = false
  private readonly runJob: (run: JobRun, job: Job) => void | Promise<void>
  /** Consecutive failures by kind of job (holdBack). */
  private readonly failures = new Map<string, number>()

  constructor (opts: SchedulerOptions) {
    this.clock = opts.clock
    this.onError = opts.onError ?? (() => {})
    this.runJob = opts.runJob ?? (run => run())
    // A timer's real delay was reckoned on the clock as it stood: any move makes it wrong.
    this.clock.onChange(() => {
      this.disarm()
      this.arm()
    })
  }

  /**
   * Holds every job until `resume` (the store cannot write: a job would change state only to see it
   * rolled back, again and again). Jobs keep their due times and run, in order, once resumed.
   */
  pause (): void {
    this.paused = true
    this.arm()
  }

  resume (): void {
    if (!this.paused) return
    this.paused = false
    void this.runDue()
  }

  isPaused (): boolean {
    return this.paused
  }

  /**
   * Runs `run` once the sandbox clock reaches `dueAt`. With a `key` (the record and purpose it is for,
   * such as `charge-expiry:<id>`), it takes the place of the job pending under that key: however often
   * a record changes, it has one job per purpose.
   */
  at (dueAt: number, kind: string, run: JobRun, key?: string): Job {
    if (key !== undefined) this.cancel(this.byKey.get(key))
    const job: Job = { id: ++this.seq, dueAt, kind, key, run, cancelled: false }
    if (key !== undefined) this.byKey.set(key, job)
    this.push(job)
    this.arm()
    return job
  }

  after (delayMs: number, kind: string, run: JobRun, key?: string): Job {
    return this.at(this.clock.now() + Math.max(0, delayMs), kind, run, key)
  }

  cancel (job: Job | undefined): void {
    if (!job || job.cancelled) return
    job.cancelled = true
    this.forgetKey(job)
    if (!this.queued.has(job)) return
    // A cancelled job leaves the heap only when it reaches the top; with a frozen clock or far-off due
    // times that may be never. Once they are most of the heap, it is rebuilt without them.
    if (++this.cancelled > 1024 && this.cancelled > this.heap.length / 2) this.compact()
  }

  /** Cancels the job pending under `key`, if any. */
  cancelKey (key: string): void {
    this.cancel(this.byKey.get(key))
  }

  pending (): number {
    return this.heap.length - this.cancelled
  }

  nextDueAt (): number | null {
    this.dropCancelledHead()
    return this.heap[0]?.dueAt ?? null
  }

  /**
   * Runs `move` (a move of the clock: advance, set, freeze, resume) once every move before it has
   * ended, so a second move during a long jump starts from where the jump ended.
   */
  move<T> (move: () => Promise<T> | T): Promise<T> {
    const turn = this.moving.then(move)
    this.moving = turn.catch(() => {})
    return turn
  }

  /** Moves the clock forward by `ms`, running every job due on the way, in order. */
  async advance (ms: number): Promise<void> {
    await this.advanceTo(this.clock.now() + ms)
  }

  async advanceTo (target: number): Promise<void> {
    const whole = await this.drain(target)
    // A reset or an import during the jump put the clock where it starts: the jump is over.
    if (whole && target > this.clock.now()) this.clock.set(target)
    this.arm()
  }

  /** Runs the jobs already due by the clock as it is now (after freeze/resume/set). */
  async runDue (): Promise<void> {
    await this.drain(this.clock.now())
    this.arm()
  }

  /** Forgets every job (reset, snapshot import); the owners of state reschedule what is still due. */
  clear (): void {
    this.dropAll()
    this.arm()
  }

  /** The heap without its cancelled jobs: a sorted array is a valid heap on the same order. */
  private compact (): void {
    for (const job of this.heap) if (job.cancelled) this.queued.delete(job)
    this.heap = this.heap.filter(j => !j.cancelled).sort((a, b) => this.less(a, b) ? -1 : 1)
    this.cancelled = 0
  }

  close (): void {
    this.closed = true
    this.dropAll()
    this.disarm()
  }

  private dropAll (): void {
    for (const job of this.heap) job.cancelled = true
    this.heap = []
    this.byKey.clear()
    this.cancelled = 0
    this.generation++
  }

  /** Runs the jobs due by `until`, in order; false when a clear() (a reset, an import) ended the run. */
  private async drain (until: number): Promise<boolean> {
    // Serialise drains: a timer-driven drain and an advance must not run the same job twice.
    while (this.draining) await this.draining
    let release!: () => void
    this.draining = new Promise(resolve => { release = resolve })
    const generation = this.generation
    let sliceStarted = performance.now()
    try {
      for (;;) {
        this.dropCancelledHead()
        const job = this.heap[0]
        if (!job || job.dueAt > until || this.paused) break
        this.pop()
        this.forgetKey(job)
        if (job.dueAt > this.clock.now()) this.clock.set(job.dueAt)
        const scheduledBefore = this.seq
        try {
          // Most jobs are synchronous: awaiting only a returned promise saves a turn of the microtask queue per job.
          const result = this.runJob(job.run, job)
          if (result) await result
          this.failures.delete(job.kind)
        } catch (err) {
          this.onError(err, job)
          this.holdBack(scheduledBefore, job.kind)
        }
        if (performance.now() - sliceStarted >= SLICE_MS) {
          // Other requests are answered between slices; they see the clock where the run has got to.
          await new Promise(resolve => setImmediate(resolve))
          sliceStarted = performance.now()
        }
        // A reset or an import (during a slice's pause, or an awaited job) replaced the jobs: this run is over.
        if (generation !== this.generation) return false
      }
      return true
    } finally {
      this.draining = null
      release()
    }
  }

  /**
   * The one real timer, for the earliest job of the clock as it is now (none while frozen, paused or
   * draining: whoever drains arms it when the drain ends). A timer armed for a job no later than the
   * earliest one stays: with the clock running as it ran then, its real delay still holds. A move of the
   * clock disarms it first (the constructor's listener), since the delay was reckoned on the clock as it was.
   */
  private arm (): void {
    const next = this.closed || this.draining ? null : this.nextDueAt()
    if (next === null || this.clock.isFrozen() || this.paused) {
      this.disarm()
      return
    }
    if (this.timer && this.timerDueAt <= next) return
    this.disarm()
    this.timerDueAt = next
    const delay = Math.max(0, Math.min(next - this.clock.now(), 2 ** 31 - 1))
    this.timer = setTimeout(() => {
      this.timer = null
      this.timerDueAt = Infinity
      void this.runDue()
    }, delay)
    this.timer.unref()
  }

  private disarm (): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.timerDueAt = Infinity
  }

  /**
   * After a job of `kind` failed: the jobs scheduled during its run that are already due wait, 1 s
   * the first time and twice as long each time the kind fails again, up to an hour. A failed unit's
   * rollback puts its pending record back and its owner schedules it again at its due time, in the
   * past: a job that fails every time (a bug) would otherwise run again at once, forever, in one pass.
   */
  private holdBack (scheduledAfter: number, kind: string): void {
    const streak = (this.failures.get(kind) ?? 0) + 1
    this.failures.set(kind, streak)
    const until = this.clock.now() + Math.min(FIRST_WAIT_MS * 2 ** (streak - 1), LONGEST_WAIT_MS)
    let held = false
    for (const job of this.heap) {
      if (job.id > scheduledAfter && !job.cancelled && job.dueAt <= this.clock.now()) {
        job.dueAt = until
        held = true
      }
    }
    if (held) this.compact()
  }

  private forgetKey (job: Job): void {
    if (job.key !== undefined && this.byKey.get(job.key) === job) this.byKey.delete(job.key)
  }

  private dropCancelledHead (): void {
    while (this.heap.length > 0 && this.heap[0].cancelled) {
      this.pop()
      this.cancelled--
    }
  }

  // A binary min-heap on (dueAt, id): jobs due at the same instant run in the order they were scheduled.
  private less (a: Job, b: Job): boolean {
    return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id)
  }

  private push (job: Job): void {
    const h = this.heap
    h.push(job)
    this.queued.add(job)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!this.less(h[i], h[p])) break
      ;[h[i], h[p]] = [h[p], h[i]]
      i = p
    }
  }

  private pop (): Job | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (top) this.queued.delete(top)
    if (h.length > 0 && last) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && this.less(h[l], h[m])) m = l
        if (r < h.length && this.less(h[r], h[m])) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m], h[i]]
        i = m
      }
    }
    return top
  }
}
