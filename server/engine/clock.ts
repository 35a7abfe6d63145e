/**
 * The sandbox clock: real time plus an offset, or frozen at an instant.
 * Every timed effect reads this clock (never Date.now()), so tests can move time instead of sleeping.
 */
export interface ClockState {
  frozen: boolean
  now: string
  offsetMs: number
}

export class Clock {
  private offsetMs = 0
  private frozenAt: number | null = null

  constructor (private readonly realNow: () => number = Date.now) {}

  now (): number {
    return this.frozenAt ?? this.realNow() + this.offsetMs
  }

  isFrozen (): boolean {
    return this.frozenAt !== null
  }

  freeze (): void {
    if (this.frozenAt === null) this.frozenAt = this.now()
  }

  resume (): void {
    if (this.frozenAt === null) return
    // Resume from the frozen instant rather than jumping to wall time, so no timer fires in a burst.
    this.offsetMs = this.frozenAt - this.realNow()
    this.frozenAt = null
  }

  /** Moves the clock to `instant`; the scheduler only ever moves it forward. */
  set (instant: number): void {
    if (this.frozenAt !== null) this.frozenAt = instant
    else this.offsetMs = instant - this.realNow()
  }

  state (): ClockState {
    return { frozen: this.isFrozen(), now: new Date(this.now()).toISOString(), offsetMs: this.now() - this.realNow() }
  }
}
