import type { SendResult } from './sender.js'

/**
 * The sandbox's own queue of webhook attempts, in front of the HTTP client (docs/reliability.md, "A
 * long jump of the clock"). At most `connections` attempts per origin are under way at once, as many
 * as the client keeps connections, so an attempt handed to the client gets a connection at once: its
 * clocks (sendAttempt's) start when its connection does, and the time it spent behind the sandbox's
 * own burst never counts against it. And the attempts of one record to one URL (`order`) go one at a
 * time, in the order they came, so a receiver that answers gets a record's notifications in order.
 */
export interface QueuedAttempt {
  id: number
  url: string
  /** The attempts with the same key go one after another (a delivery's URL and its record); none: no order. */
  order?: string
}

/** Runs one attempt: resolves with its result, and a cancelled one once `controller` aborts. */
export type RunAttempt<A extends QueuedAttempt> = (attempt: A, controller: AbortController) => Promise<SendResult>

const CANCELLED: SendResult = { statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true }

interface Entry<A> {
  attempt: A
  origin: string
  /** Waiting behind an earlier attempt of its order, waiting for a connection, or under way. */
  stage: 'behind' | 'queued' | 'running'
  controller?: AbortController
}

/** A first-in first-out queue that takes O(1) per attempt however long it grows (Array.shift moves every element). */
class Fifo<T> {
  private items: T[] = []
  private head = 0

  get size (): number {
    return this.items.length - this.head
  }

  push (item: T): void {
    this.items.push(item)
  }

  shift (): T | undefined {
    if (this.head >= this.items.length) return undefined
    const item = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return item
  }
}

export class SendQueue<A extends QueuedAttempt> {
  private readonly entries = new Map<number, Entry<A>>()
  private readonly origins = new Map<string, { running: number, waiting: Fifo<Entry<A>> }>()
  /** For each order under way, the attempts behind its current one, in the order they came. */
  private readonly behind = new Map<string, Array<Entry<A>>>()

  constructor (
    private readonly connections: number,
    private readonly run: RunAttempt<A>,
    private readonly done: (id: number, result: SendResult) => void
  ) {}

  add (attempt: A): void {
    let origin: string
    try {
      origin = new URL(attempt.url).origin
    } catch {
      origin = '' // run reports the unparsable URL
    }
    const entry: Entry<A> = { attempt, origin, stage: 'queued' }
    this.entries.set(attempt.id, entry)
    const order = attempt.order
    if (order !== undefined) {
      const waiting = this.behind.get(order)
      if (waiting !== undefined) {
        entry.stage = 'behind'
        waiting.push(entry)
        return
      }
      this.behind.set(order, [])
    }
    this.enqueue(entry)
  }

  /** Ends an attempt: one under way is aborted (its result comes back cancelled), one still waiting is dropped. */
  cancel (id: number): void {
    const entry = this.entries.get(id)
    if (entry === undefined) return
    if (entry.stage === 'running') {
      entry.controller!.abort()
      return
    }
    this.entries.delete(id)
    if (entry.stage === 'behind') {
      const waiting = this.behind.get(entry.attempt.order!)!
      waiting.splice(waiting.indexOf(entry), 1)
    } else {
      // Left in its origin's queue, skipped when it comes up; the attempts behind it go on.
      this.next(entry)
    }
    this.done(id, CANCELLED)
  }

  /** Attempts not yet ended, waiting or under way. */
  size (): number {
    return this.entries.size
  }

  private enqueue (entry: Entry<A>): void {
    entry.stage = 'queued'
    let origin = this.origins.get(entry.origin)
    if (origin === undefined) this.origins.set(entry.origin, origin = { running: 0, waiting: new Fifo() })
    origin.waiting.push(entry)
    this.pump(entry.origin)
  }

  private pump (key: string): void {
    const origin = this.origins.get(key)
    if (origin === undefined) return
    while (origin.running < this.connections) {
      const entry = origin.waiting.shift()
      if (entry === undefined) break
      if (this.entries.get(entry.attempt.id) !== entry) continue // cancelled while it waited
      origin.running++
      this.start(entry, key)
    }
    if (origin.running === 0 && origin.waiting.size === 0) this.origins.delete(key)
  }

  private start (entry: Entry<A>, key: string): void {
    entry.stage = 'running'
    entry.controller = new AbortController()
    void this.run(entry.attempt, entry.controller).then(result => {
      this.entries.delete(entry.attempt.id)
      this.origins.get(key)!.running--
      this.next(entry)
      this.pump(key)
      this.done(entry.attempt.id, result)
    })
  }

  /** The attempt of the same order after `entry` may go now. */
  private next (entry: Entry<A>): void {
    const order = entry.attempt.order
    if (order === undefined) return
    const waiting = this.behind.get(order)!
    const following = waiting.shift()
    if (following === undefined) this.behind.delete(order)
    else this.enqueue(following)
  }
}
