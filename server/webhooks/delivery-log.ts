import { mergeBySeq, ownRecord, type Store } from '../store/store.js'
import type { Delivery, DeliveryEventType, DeliveryStatus } from './types.js'
import type { Patch } from '../store/state.js'

/**
 * The delivery log: `store.data.deliveries` plus an in-memory index per account in creation order,
 * the per-account cap, the filters of the control plane, and the listeners the long-poll waits on.
 */
export interface DeliveryFilter {
  accountId?: number
  eventType?: DeliveryEventType
  transactionId?: string
  status?: DeliveryStatus
  /** Only deliveries made after this one (its `seq`): `since=<delivery id>`. */
  afterSeq?: number
  /** Only deliveries created at or after this sandbox instant (ms): `since=<instant>`. */
  createdFromMs?: number
}

export function matches (d: Delivery, f: DeliveryFilter): boolean {
  return (f.afterSeq === undefined || d.seq > f.afterSeq) &&
    (f.createdFromMs === undefined || Date.parse(d.createdAt) >= f.createdFromMs) &&
    (f.accountId === undefined || d.accountId === f.accountId) &&
    (f.eventType === undefined || d.eventType === f.eventType) &&
    (f.transactionId === undefined || d.transactionId === f.transactionId) &&
    (f.status === undefined || d.status === f.status)
}

/** A field of a delivery filter that a delivery did not match: what was asked, what the delivery holds. */
export interface DeliveryDifference { field: 'accountId' | 'eventType' | 'transactionId' | 'status' | 'since', expected: unknown, actual: unknown }

/** A delivery close to a filter it does not match, and how it differs. */
export interface DeliveryNearMiss { delivery: Delivery, differences: DeliveryDifference[] }

/** The fields of the filter a delivery does not match, in the filter's own terms (`since` for either form of it). */
export function differences (d: Delivery, f: DeliveryFilter): DeliveryDifference[] {
  const out: DeliveryDifference[] = []
  const check = (field: DeliveryDifference['field'], expected: unknown, actual: unknown, ok: boolean): void => { if (!ok) out.push({ field, expected, actual }) }
  if (f.accountId !== undefined) check('accountId', f.accountId, d.accountId, d.accountId === f.accountId)
  if (f.eventType !== undefined) check('eventType', f.eventType, d.eventType, d.eventType === f.eventType)
  if (f.transactionId !== undefined) check('transactionId', f.transactionId, d.transactionId, d.transactionId === f.transactionId)
  if (f.status !== undefined) check('status', f.status, d.status, d.status === f.status)
  if (f.afterSeq !== undefined) check('since', `made after delivery seq ${f.afterSeq}`, `seq ${d.seq}`, d.seq > f.afterSeq)
  if (f.createdFromMs !== undefined) check('since', `created at or after ${new Date(f.createdFromMs).toISOString()}`, d.createdAt, Date.parse(d.createdAt) >= f.createdFromMs)
  return out
}

/**
 * Why a near miss is not what was waited for, in a sentence: what became of it (no receiver, an attempt
 * that failed and when the next one is due, given up) and the fields it differs in. `frozen`: the sandbox
 * clock is frozen, so a retry waits for it to move.
 */
export function nearMissSentence ({ delivery: d, differences: diff }: DeliveryNearMiss, frozen: boolean): string {
  const what = `delivery ${d.id} (${d.eventType}${d.transactionId === null ? '' : `, transaction ${d.transactionId}`}, account ${d.accountId})`
  const apart = diff.map(x => `${x.field} ${JSON.stringify(x.actual)}, not ${JSON.stringify(x.expected)}`).join('; ')
  const last = d.attempts.at(-1)
  const lastFailure = last === undefined ? '' : last.error ?? (last.statusCode === null ? 'no answer' : `HTTP ${last.statusCode}`)
  let fate: string
  switch (d.status) {
    case 'no_receiver':
      fate = `no receiver: account ${d.accountId} had no active webhook for ${d.eventType} when it happened, so nothing was sent (register one before the operation: POST /__sandbox/webhooks, or the dashboard)`
      break
    case 'pending':
      fate = last === undefined
        // A pending delivery without a due attempt has its first one out (or waiting for its change to reach the data file).
        ? d.nextAttemptAt === null
          ? `pending: its first attempt to ${d.url ?? '(no URL)'} is under way, not answered yet`
          : `pending, not attempted yet (first attempt due at ${d.nextAttemptAt} of sandbox time)`
        : `pending: attempt ${d.attempts.length} to ${d.url ?? '(no URL)'} failed (${lastFailure})${d.nextAttemptAt === null ? '' : `, the next is due at ${d.nextAttemptAt} of sandbox time`}`
      if (d.heldForReorder === true) fate += ', held back by WEBHOOK_OUT_OF_ORDER'
      if (frozen && d.nextAttemptAt !== null) fate += ' (the clock is frozen: POST /__sandbox/clock/advance moves it)'
      break
    case 'failed':
      fate = `failed after ${d.attempts.length} attempt(s) to ${d.url ?? '(no URL)'}${lastFailure === '' ? '' : `, the last: ${lastFailure}`}${d.failureReason === undefined ? '' : ` (${d.failureReason})`}`
      break
    case 'dropped':
      fate = 'dropped by WEBHOOK_DROP, never sent'
      break
    default:
      fate = `${d.status} to ${d.url ?? '(no URL)'}`
  }
  return `${what} is ${fate}; it differs in ${apart}`
}

export class DeliveryLog {
  private byAccount = new Map<number, Delivery[]>()
  /** Pending delivery ids per account, so trimming skips the scan when nothing can be evicted. */
  private pendingByAccount = new Map<number, Set<string>>()
  /** The same per receiver URL (in creation order too), for the pending cap, which counts only receivers that fail. */
  private pendingByUrl = new Map<number, Map<string, Set<string>>>()
  private readonly listeners = new Set<(d: Delivery) => void>()

  constructor (private readonly store: Store, private readonly capPerAccount: () => number) {}

  private get records (): Readonly<Record<string, Delivery>> {
    return this.store.data.deliveries
  }

  get (id: string): Delivery | undefined {
    return ownRecord(this.records, id)
  }

  all (): Delivery[] {
    return Object.values(this.records)
  }

  /** Rebuilds the index after the document was replaced (load, import, reset). */
  reindex (): void {
    this.byAccount.clear()
    this.pendingByAccount.clear()
    this.pendingByUrl.clear()
    for (const d of this.all().sort((a, b) => a.seq - b.seq)) {
      this.indexOf(d.accountId).push(d)
      this.track(d)
    }
  }

  /**
   * A rollback put these deliveries back: each is in its account's list (at its place by `seq`) and
   * pending set exactly when it is in the state, as it is now.
   */
  follow (deliveries: readonly Delivery[]): void {
    const back = new Map<number, Delivery[]>()
    for (const d of deliveries) {
      const list = this.indexOf(d.accountId)
      const at = list.lastIndexOf(d)
      const inState = this.get(d.id) === d
      if (!inState && at >= 0) list.splice(at, 1)
      if (inState && at < 0) back.set(d.accountId, [...(back.get(d.accountId) ?? []), d])
      this.track(d)
    }
    for (const [accountId, list] of back) {
      const merged = mergeBySeq(this.indexOf(accountId), list)
      this.byAccount.set(accountId, merged)
      // The pending sets keep creation order (the oldest are given up first).
      const pending = merged.filter(d => d.status === 'pending')
      this.pendingByAccount.set(accountId, new Set(pending.map(d => d.id)))
      this.pendingByUrl.delete(accountId)
      for (const d of pending) this.trackUrl(d)
    }
  }

  /** Adds a delivery, then trims the account's log to its cap; returns what was evicted. */
  add (d: Delivery): Delivery[] {
    this.store.add('deliveries', d)
    this.indexOf(d.accountId).push(d)
    this.changed(d)
    return this.trim(d.accountId)
  }

  /** Changes a delivery's fields through the store, then tells whoever waits for it. */
  update (id: string, change: (d: Patch<Delivery>) => void): Delivery {
    this.store.patch('deliveries', id, change)
    const d = this.records[id]
    this.changed(d)
    return d
  }

  /**
   * Drops the account's oldest finished deliveries while its log is over the cap. A pending delivery is
   * never dropped (that would lose a webhook the receiver is owed), so a burst may exceed the cap until
   * its deliveries finish; `finish` trims again then. Trimming waits for a slack of a tenth of the cap
   * and then rebuilds the list in one pass, so a busy log costs O(1) per delivery, not a scan each time.
   */
  trim (accountId: number): Delivery[] {
    const list = this.indexOf(accountId)
    const cap = this.capPerAccount()
    const slack = Math.floor(cap / 10)
    const finished = list.length - (this.pendingByAccount.get(accountId)?.size ?? 0)
    let excess = list.length - cap
    // A pass only when it frees at least the slack: one finished delivery amid a burst of pending ones
    // would otherwise cost a full pass each.
    if (excess <= slack || Math.min(excess, finished) < Math.max(1, slack)) return []
    const evicted: Delivery[] = []
    const kept: Delivery[] = []
    for (const d of list) {
      if (excess > 0 && d.status !== 'pending') {
        this.store.remove('deliveries', d.id)
        evicted.push(d)
        excess--
      } else {
        kept.push(d)
      }
    }
    this.byAccount.set(accountId, kept)
    return evicted
  }

  /**
   * The account's oldest pending deliveries to the URLs `counted` picks, beyond `cap` of them, oldest
   * first (each URL's pending set keeps creation order; an account has few URLs).
   */
  pendingBeyond (accountId: number, cap: number, counted: (url: string) => boolean): Delivery[] {
    const byUrl = this.pendingByUrl.get(accountId)
    if (byUrl === undefined) return []
    // Counted first, without allocating: this runs for every event, and is almost always under the cap.
    let total = 0
    for (const [url, ids] of byUrl) if (counted(url)) total += ids.size
    if (total <= cap) return []
    const sets = [...byUrl].filter(([url]) => counted(url)).map(([, ids]) => ids)
    const out: Delivery[] = []
    // Merged by seq: a cursor on each URL's set, the oldest head taken each time.
    const cursors = sets.map(ids => {
      const it = ids.values()
      return { it, id: it.next().value as string | undefined }
    })
    while (out.length < total - cap) {
      let oldest: (typeof cursors)[number] | undefined
      for (const c of cursors) {
        if (c.id !== undefined && (oldest === undefined || this.records[c.id].seq < this.records[oldest.id!].seq)) oldest = c
      }
      if (oldest === undefined) break
      out.push(this.records[oldest.id!])
      oldest.id = oldest.it.next().value as string | undefined
    }
    return out
  }

  /** Accounts with pending deliveries. */
  accountsPending (): number[] {
    return [...this.pendingByAccount.keys()]
  }

  /** The account went, and its deliveries with it (the store removes an account's records): its lists go, and what they held is returned. */
  forgetAccount (accountId: number): Delivery[] {
    const list = this.byAccount.get(accountId) ?? []
    this.byAccount.delete(accountId)
    this.pendingByAccount.delete(accountId)
    this.pendingByUrl.delete(accountId)
    return list
  }

  /**
   * Newest first. Each account's list is walked from its newest and left once it gave `limit` (no
   * list gives more to the answer): a filter by status or event type costs what it answers, not the
   * whole log (a long-poll's wait asks for 1).
   */
  query (f: DeliveryFilter, limit: number): Delivery[] {
    const lists = f.accountId !== undefined ? [this.byAccount.get(f.accountId) ?? []] : [...this.byAccount.values()]
    const out: Delivery[] = []
    for (const list of lists) {
      let taken = 0
      for (let i = list.length - 1; i >= 0 && taken < limit; i--) {
        if (matches(list[i], f)) {
          out.push(list[i])
          taken++
        }
      }
    }
    out.sort((a, b) => b.seq - a.seq)
    return out.slice(0, limit)
  }

  /**
   * The deliveries closest to a filter (fewest fields apart, then newest), at most `limit`, each with what
   * differed: what a wait that timed out answers, as a failed verify of the request journal does. Every
   * account's, since a wait may name the wrong one.
   */
  nearMisses (f: DeliveryFilter, limit: number): DeliveryNearMiss[] {
    const best: DeliveryNearMiss[] = []
    const before = (a: DeliveryNearMiss, b: DeliveryNearMiss): boolean => a.differences.length < b.differences.length || (a.differences.length === b.differences.length && a.delivery.seq > b.delivery.seq)
    for (const list of this.byAccount.values()) {
      for (const delivery of list) {
        const miss = { delivery, differences: differences(delivery, f) }
        if (miss.differences.length === 0 || (best.length === limit && !before(miss, best[limit - 1]))) continue
        let at = best.length
        while (at > 0 && before(miss, best[at - 1])) at--
        best.splice(at, 0, miss)
        if (best.length > limit) best.pop()
      }
    }
    return best
  }

  /** Tells every waiter that a delivery was created or changed. */
  private changed (d: Delivery): void {
    this.track(d)
    // A copy, since a listener may remove itself; none at all is the common case (no long-poll waiting).
    if (this.listeners.size > 0) for (const listener of [...this.listeners]) listener(d)
  }

  listen (listener: (d: Delivery) => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  private track (d: Delivery): void {
    let pending = this.pendingByAccount.get(d.accountId)
    if (!pending) this.pendingByAccount.set(d.accountId, pending = new Set())
    if (d.status === 'pending' && this.records[d.id] === d) pending.add(d.id)
    else pending.delete(d.id)
    this.trackUrl(d)
  }

  private trackUrl (d: Delivery): void {
    if (d.url === null) return
    let byUrl = this.pendingByUrl.get(d.accountId)
    if (!byUrl) this.pendingByUrl.set(d.accountId, byUrl = new Map())
    let pending = byUrl.get(d.url)
    if (d.status === 'pending' && this.records[d.id] === d) {
      if (!pending) byUrl.set(d.url, pending = new Set())
      pending.add(d.id)
    } else if (pending) {
      pending.delete(d.id)
      if (pending.size === 0) byUrl.delete(d.url)
    }
  }

  private indexOf (accountId: number): Delivery[] {
    let list = this.byAccount.get(accountId)
    if (!list) this.byAccount.set(accountId, list = [])
    return list
  }
}
