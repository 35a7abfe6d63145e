/**
 * The sandbox clock: real time plus an offset, or frozen at an instant.
 * Every timed effect reads this clock (never Date.now()), so tests can move time instead of sleeping.
 */
export interface ClockState {
  frozen: boolean
  now: string
  offsetMs: number
}

/** The clock as a state document carries it (see ClockRecord in store/state.ts, the same shape). */
export interface ClockSnapshot {
  now: string
  frozen: boolean
  offsetMs?: number
}

export interface ClockOptions {
  /** The instants the clock may take (inclusive); set() outside them throws a RangeError. */
  min?: number
  max?: number
}

export class Clock {
  private offsetMs = 0
  private frozenAt: number | null = null
  private readonly listeners: Array<() => void> = []
  private readonly min: number
  private readonly max: number

  constructor (private readonly realNow: () => number = Date.now, opts: ClockOptions = {}) {
    this.min = opts.min ?? -8.64e15
    this.max = opts.max ?? 8.64e15
  }

  now (): number {
    return this.frozenAt ?? this.realNow() + this.offsetMs
  }

  isFrozen (): boolean {
    return this.frozenAt !== null
  }

  /** Whether `instant` is one the clock may take. */
  accepts (instant: number): boolean {
    return Number.isFinite(instant) && instant >= this.min && instant <= this.max
  }

  /** Tells `listener` whenever the clock is moved, frozen or resumed (with --data it is persisted). */
  onChange (listener: () => void): void {
    this.listeners.push(listener)
  }

  freeze (): void {
    if (this.frozenAt !== null) return
    this.frozenAt = this.now()
    this.changed()
  }

  resume (): void {
    if (this.frozenAt === null) return
    // Resume from the frozen instant rather than jumping to wall time, so no timer fires in a burst.
    this.offsetMs = this.frozenAt - this.realNow()
    this.frozenAt = null
    this.changed()
  }

  /** Moves the clock to `instant`; the scheduler only ever moves it forward. */
  set (instant: number): void {
    if (!this.accepts(instant)) throw new RangeError(`the sandbox clock cannot be set to ${instant}`)
    if (this.frozenAt !== null) this.frozenAt = instant
    else this.offsetMs = instant - this.realNow()
    this.changed()
  }

  state (): ClockState {
    return { frozen: this.isFrozen(), now: new Date(this.now()).toISOString(), offsetMs: this.now() - this.realNow() }
  }

  /** What a state document keeps: the instant, frozen or not, and a running clock's offset from wall time. */
  snapshot (): ClockSnapshot {
    const now = new Date(this.now()).toISOString()
    return this.frozenAt !== null ? { now, frozen: true } : { now, frozen: false, offsetMs: this.offsetMs }
  }

  /**
   * Puts the clock where a document says. `continue` (a restart on the same data file, a write rolled
   * back): a running clock keeps its offset from wall time, as if it had kept running meanwhile.
   * `instant` (a snapshot import): back to the exported instant, running from there or frozen.
   */
  restore (s: ClockSnapshot, how: 'continue' | 'instant'): void {
    const instant = Date.parse(s.now)
    if (s.frozen) {
      this.frozenAt = instant
    } else {
      this.frozenAt = null
      this.offsetMs = how === 'continue' && s.offsetMs !== undefined ? s.offsetMs : instant - this.realNow()
    }
    this.changed()
  }

  private changed (): void {
    for (const listener of this.listeners) listener()
  }
}
