import type { Clock } from './clock.js'

/**
 * One scheduler for everything that happens later: settlement, webhook attempts, charge expiry,
 * split payouts. Jobs run in due order against the sandbox clock. While the clock runs, a single
 * real timer is armed for the earliest job; advancing the clock runs every job that became due,
 * each seeing the clock at its own due instant, before the advance returns.
 */
export type JobRun = () => void | Promise<void>

const FIRST_WAIT_MS = 1000
const LONGEST_WAIT_MS = 60 * 60_000

export interface Job {
  id: number
  dueAt: number
  kind: string
  run: JobRun
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
  /** Cancelled jobs still in the heap (an upper bound: a job cancelled after it ran counts too, until compact). */
  private cancelled = 0
  private seq = 0
  private timer: NodeJS.Timeout | null = null
  private timerDueAt = Infinity
  private draining: Promise<void> | null = null
  private closed = false
  private paused = false
  private readonly runJob: (run: JobRun, job: Job) => void | Promise<void>
  /** Consecutive failures by kind of job (holdBack). */
  private readonly failures = new Map<string, number>()

  constructor (opts: SchedulerOptions) {
    this.clock = opts.clock
    this.onError = opts.onError ?? (() => {})
    this.runJob = opts.runJob ?? (run => run())
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

  /** Runs `run` once the sandbox clock reaches `dueAt`. */
  at (dueAt: number, kind: string, run: JobRun): Job {
    const job: Job = { id: ++this.seq, dueAt, kind, run, cancelled: false }
    this.push(job)
    this.arm()
    return job
  }

  after (delayMs: number, kind: string, run: JobRun): Job {
    return this.at(this.clock.now() + Math.max(0, delayMs), kind, run)
  }

  cancel (job: Job | undefined): void {
    if (!job || job.cancelled) return
    job.cancelled = true
    // A cancelled job leaves the heap only when it reaches the top; with a frozen clock or far-off due
    // times that may be never. Once they are most of the heap, it is rebuilt without them.
    if (++this.cancelled > 1024 && this.cancelled > this.heap.length / 2) this.compact()
  }

  pending (): number {
    return this.heap.filter(j => !j.cancelled).length
  }

  nextDueAt (): number | null {
    this.dropCancelledHead()
    return this.heap[0]?.dueAt ?? null
  }

  /** Moves the clock forward by `ms`, running every job due on the way, in order. */
  async advance (ms: number): Promise<void> {
    await this.advanceTo(this.clock.now() + ms)
  }

  async advanceTo (target: number): Promise<void> {
    await this.drain(target)
    if (target > this.clock.now()) this.clock.set(target)
    this.arm()
  }

  /** Runs the jobs already due by the clock as it is now (after freeze/resume/set). */
  async runDue (): Promise<void> {
    await this.drain(this.clock.now())
    this.arm()
  }

  /** Forgets every job (reset, snapshot import); the owners of state reschedule what is still due. */
  clear (): void {
    for (const job of this.heap) job.cancelled = true
    this.heap = []
    this.cancelled = 0
    this.arm()
  }

  /** The heap without its cancelled jobs: a sorted array is a valid heap on the same order. */
  private compact (): void {
    this.heap = this.heap.filter(j => !j.cancelled).sort((a, b) => this.less(a, b) ? -1 : 1)
    this.cancelled = 0
  }

  close (): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.heap = []
  }

  private async drain (until: number): Promise<void> {
    // Serialise drains: a timer-driven drain and an advance must not run the same job twice.
    while (this.draining) await this.draining
    let release!: () => void
    this.draining = new Promise(resolve => { release = resolve })
    try {
      for (;;) {
        this.dropCancelledHead()
        const job = this.heap[0]
        if (!job || job.dueAt > until || this.paused) break
        this.pop()
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
      }
    } finally {
      this.draining = null
      release()
    }
  }

  private arm (): void {
    if (this.closed) return
    const next = this.nextDueAt()
    if (next === null || this.clock.isFrozen() || this.paused) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = null
      this.timerDueAt = Infinity
      return
    }
    if (this.timer && this.timerDueAt <= next) return
    if (this.timer) clearTimeout(this.timer)
    this.timerDueAt = next
    const delay = Math.max(0, Math.min(next - this.clock.now(), 2 ** 31 - 1))
    this.timer = setTimeout(() => {
      this.timer = null
      this.timerDueAt = Infinity
      void this.runDue()
    }, delay)
    this.timer.unref()
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

  private dropCancelledHead (): void {
    while (this.heap.length > 0 && this.heap[0].cancelled) {
      this.pop()
      if (this.cancelled > 0) this.cancelled--
    }
  }

  // A binary min-heap on (dueAt, id): jobs due at the same instant run in the order they were scheduled.
  private less (a: Job, b: Job): boolean {
    return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id)
  }

  private push (job: Job): void {
    const h = this.heap
    h.push(job)
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
