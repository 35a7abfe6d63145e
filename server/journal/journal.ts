/**
 * The request journal behind `/__sandbox/requests`: every request to the gateway API and the control
 * plane, newest kept, bounded per account (the oldest of an account go first, so a busy account never
 * pushes a quiet one's requests out). Requests of no account (a control-plane call about nothing in
 * particular, a token request with unknown credentials, a request naming an account that does not
 * exist) share one more bucket of the same size. A bucket is bounded in entries and in bytes
 * (`BYTES_PER_ENTRY`), and each body is kept as text up to a limit (capture.ts), so what the journal
 * holds is bounded whatever clients send (docs/assumptions.md).
 *
 * Entries are recorded on the request path with as little work as possible (credentials are masked
 * then; see redact.ts) and completed on first read: the transaction the request created or read is
 * looked up only when someone asks, and the bodies are parsed on each read. It lives in memory only:
 * a restart, a full reset or `DELETE /__sandbox/requests` empties it (docs/assumptions.md).
 */
import { heapSize } from './size.js'

/** What the request path hands over: the raw facts, credentials already masked. */
export interface RecordedRequest {
  requestId: string
  /** Sandbox time and wall time, in ms. */
  atMs: number
  wallMs: number
  method: string
  path: string
  query: Record<string, unknown>
  /** The route's pattern (`/__sandbox/transactions/:id`), null when no route matched. */
  route: string | null
  params: Record<string, unknown>
  status: number
  durationMs: number
  accountId: number | null
  tokenId: string | null
  idempotencyKey: string | null
  externalId: string | null
  scenarios: string[]
  errorCode: string | null
  requestHeaders: Record<string, string>
  /** The body as JSON text, credentials masked (parsed on each read), a note saying why it is not kept, or null. */
  requestText: string | null
  responseHeaders: Record<string, string>
  /** The answer as sent: JSON text (parsed on first read), or a note saying why it is not kept. */
  responseText: string | null
}

/** An entry as the API shows it. */
export interface JournalEntry {
  id: number
  requestId: string
  at: string
  wallTime: string
  method: string
  path: string
  query: Record<string, unknown>
  route: string | null
  status: number
  durationMs: number
  accountId: number | null
  tokenId: string | null
  idempotencyKey: string | null
  externalId: string | null
  scenarios: string[]
  errorCode: string | null
  transactionId: string | null
  request: { headers: Record<string, string>, body: unknown }
  response: { headers: Record<string, string>, body: unknown }
}

export interface JournalFilter {
  accountId?: number
  method?: string
  /** Exact, or a prefix when it ends in `*`. */
  path?: string
  /** `201`, or a class such as `4xx`. */
  status?: string | number
  transactionId?: string
  scenario?: string
  errorCode?: string
}

export interface Matcher extends JournalFilter {
  /** Request body fields (dotted paths into nested objects) and the values they must hold. */
  bodyContains?: Record<string, unknown>
}

/** `since`: an entry id, or an instant compared with the wall time of each entry. */
export type Since = { id: number } | { wallMs: number }

export interface NearMiss {
  entry: JournalEntry
  differences: Array<{ field: string, expected: unknown, actual: unknown }>
}

/** Looks up the transaction a request created or read, among the ids its route and answer name. */
export type TransactionLookup = (candidates: string[], accountId: number | null) => string | null

/** What an entry's answer says, drawn from it on first read and kept (its bodies are parsed anew on each read). */
interface Derived {
  errorCode: string | null
  externalId: string | null
  transactionId: string | null
}

interface Stored extends RecordedRequest {
  id: number
  /** What the entry weighs, in bytes (about), counted against its bucket's budget. */
  size: number
  derived?: Derived
}

/** One account's entries, oldest first; those before `start` are out (emptied, and spliced off in batches). */
interface Bucket {
  entries: Array<Stored | undefined>
  start: number
  bytes: number
}

const NONE = 0 // the bucket of requests without an account (account ids start at 1)

/**
 * What a bucket holds per entry on average, at most: a bucket of `capacity` entries weighs at most
 * `capacity` times this (its oldest go first), so a client that fills its requests with padding pushes
 * out sooner what it sent itself, and the journal's memory stays bounded whatever clients send.
 */
export const BYTES_PER_ENTRY = 16 * 1024

/** An account id a request named: a safe positive integer, else none (an id nothing can hold). */
export const accountIdOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null

export class RequestJournal {
  private buckets = new Map<number, Bucket>()
  private next = 1
  private readonly budget: number
  /** How many buckets there may be before those of accounts that are gone (a snapshot import) are dropped. */
  private pruneAt = 16

  /** `capacity` entries per account (0 keeps nothing), of the accounts `accountExists` knows. */
  constructor (
    private readonly capacity: number,
    private readonly lookup: TransactionLookup = () => null,
    /** Whether an account of that id exists (the capture asks it too). */
    readonly accountExists: (accountId: number) => boolean = () => true
  ) {
    this.budget = capacity * BYTES_PER_ENTRY
  }

  /**
   * Keeps an entry in its account's bucket. The capture names only accounts that exist; any other
   * account id (gone since, or not a safe positive integer) goes to the bucket of no account all the
   * same: there is a bucket per existing account and one more, and no entry a listing cannot show.
   */
  record (request: RecordedRequest): void {
    if (this.capacity === 0) return
    const s = request as Stored
    const accountId = accountIdOf(request.accountId)
    s.accountId = accountId !== null && this.accountExists(accountId) ? accountId : null
    s.id = this.next++
    s.size = weightOf(request)
    const key = s.accountId ?? NONE
    let bucket = this.buckets.get(key)
    if (!bucket) {
      if (this.buckets.size >= this.pruneAt) this.prune()
      this.buckets.set(key, bucket = { entries: [], start: 0, bytes: 0 })
    }
    bucket.entries.push(s)
    bucket.bytes += s.size
    // The newest entry stays even when it alone weighs more than the budget.
    while (bucket.entries.length - bucket.start > this.capacity || (bucket.bytes > this.budget && bucket.entries.length - bucket.start > 1)) {
      bucket.bytes -= bucket.entries[bucket.start]!.size
      bucket.entries[bucket.start++] = undefined
    }
    // Spliced in batches so that a full bucket does not shift its array on every request.
    if (bucket.start > Math.min(this.capacity, 256)) {
      bucket.entries.splice(0, bucket.start)
      bucket.start = 0
    }
  }

  /**
   * Without `since`: the newest `limit` matches, newest first. With `since`: the matches strictly
   * after it, oldest first, at most `limit` (a tail polls with the id of the last entry it saw).
   */
  list (filter: JournalFilter = {}, opts: { since?: Since, limit?: number } = {}): JournalEntry[] {
    const limit = opts.limit ?? 100
    const since = opts.since
    const found = this.scan(filter, since).sort(since ? (a, b) => a.id - b.id : (a, b) => b.id - a.id)
    const out: JournalEntry[] = []
    for (let i = 0; i < found.length && out.length < limit; i++) {
      const e = this.view(found[i])
      if (matchesAfterRead(e, filter)) out.push(e)
    }
    return out
  }

  get (id: number): JournalEntry | undefined {
    for (const bucket of this.buckets.values()) {
      for (let i = bucket.start; i < bucket.entries.length; i++) {
        const s = bucket.entries[i]!
        if (s.id === id) return this.view(s)
      }
    }
    return undefined
  }

  count (matcher: Matcher): number {
    return this.matching(matcher).length
  }

  /**
   * The matches, and when there are not as many as expected, the near misses: the entries closest to
   * the matcher (fewest fields apart, newest first), each with what differed.
   */
  verify (matcher: Matcher, expected: { times?: number, atLeast?: number, atMost?: number }, nearMissLimit = 5): { count: number, ok: boolean, nearMisses: NearMiss[] } {
    const count = this.count(matcher)
    const ok = (expected.times === undefined || count === expected.times) &&
      (expected.atLeast === undefined || count >= expected.atLeast) &&
      (expected.atMost === undefined || count <= expected.atMost) &&
      (expected.times !== undefined || expected.atLeast !== undefined || expected.atMost !== undefined || count > 0)
    if (ok) return { count, ok, nearMisses: [] }
    const all = this.scan({}).map(s => this.view(s))
    const misses = all
      .map(entry => ({ entry, differences: differences(entry, matcher) }))
      .filter(m => m.differences.length > 0)
      .sort((a, b) => a.differences.length - b.differences.length || b.entry.id - a.entry.id)
    return { count, ok, nearMisses: misses.slice(0, nearMissLimit) }
  }

  /** Empties one account's journal, or all of it. Answers how many entries went. */
  clear (accountId?: number): number {
    if (accountId === undefined) {
      let n = 0
      for (const bucket of this.buckets.values()) n += bucket.entries.length - bucket.start
      this.buckets.clear()
      return n
    }
    const bucket = this.buckets.get(accountId)
    this.buckets.delete(accountId)
    return bucket ? bucket.entries.length - bucket.start : 0
  }

  /**
   * Drops the buckets of accounts that are gone (a snapshot import replaced them), checked only once the
   * buckets have doubled since the last time: at most about twice as many buckets as accounts.
   */
  private prune (): void {
    for (const key of [...this.buckets.keys()]) if (key !== NONE && !this.accountExists(key)) this.buckets.delete(key)
    this.pruneAt = Math.max(16, 2 * this.buckets.size)
  }

  private matching (matcher: Matcher): JournalEntry[] {
    return this.scan(matcher).map(s => this.view(s)).filter(e => differences(e, matcher).length === 0)
  }

  /** Entries that may match (by the fields known without reading their answer), in no particular order. */
  private scan (filter: JournalFilter, since?: Since): Stored[] {
    const only = filter.accountId !== undefined ? this.buckets.get(filter.accountId) : undefined
    const buckets = filter.accountId !== undefined ? (only ? [only] : []) : [...this.buckets.values()]
    const out: Stored[] = []
    for (const bucket of buckets) {
      for (let i = bucket.start; i < bucket.entries.length; i++) {
        const s = bucket.entries[i]!
        if (since && ('id' in since ? s.id <= since.id : s.wallMs <= since.wallMs)) continue
        if (matchesRecorded(s, filter)) out.push(s)
      }
    }
    return out
  }

  private derive (s: Stored, answer: unknown): Derived {
    s.derived ??= {
      errorCode: s.errorCode ?? (s.status >= 400 ? codeOf(answer) : null),
      externalId: s.externalId ?? externalIdOf(answer),
      transactionId: s.status < 300 || s.status === 409 ? this.lookup(candidates(s, answer), s.accountId) : null,
    }
    return s.derived
  }

  /** A new view on each read: the parsed bodies are not kept, so what an entry holds stays its text. */
  private view (s: Stored): JournalEntry {
    const answer = parseJson(s.responseText)
    const d = this.derive(s, answer)
    return {
      id: s.id,
      requestId: s.requestId,
      at: new Date(s.atMs).toISOString(),
      wallTime: new Date(s.wallMs).toISOString(),
      method: s.method,
      path: s.path,
      query: s.query,
      route: s.route,
      status: s.status,
      durationMs: s.durationMs,
      accountId: s.accountId,
      tokenId: s.tokenId,
      idempotencyKey: s.idempotencyKey,
      externalId: d.externalId,
      scenarios: s.scenarios,
      errorCode: d.errorCode,
      transactionId: d.transactionId,
      request: { headers: s.requestHeaders, body: parseJson(s.requestText) },
      response: { headers: s.responseHeaders, body: answer },
    }
  }
}

/** The record's own fields and the strings a view of it makes, about. */
const ENTRY_OVERHEAD = 1024

function weightOf (r: RecordedRequest): number {
  return ENTRY_OVERHEAD + r.path.length + (r.requestText?.length ?? 0) + (r.responseText?.length ?? 0) +
    heapSize(r.query) + heapSize(r.params) + heapSize(r.requestHeaders) + heapSize(r.responseHeaders)
}

/** A body kept as JSON text; an answer that is not JSON is shown as its text. */
function parseJson (text: string | null): unknown {
  if (text === null || text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const asRecord = (v: unknown): Record<string, unknown> | null => v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : null

function codeOf (body: unknown): string | null {
  const b = asRecord(body)
  const code = b?.errorCode ?? b?.code
  return typeof code === 'string' ? code : null
}

function externalIdOf (body: unknown): string | null {
  const v = asRecord(body)?.externalId
  return typeof v === 'string' ? v : null
}

/** Ids that may name a transaction: the answer's first (what was created or shown), then the route's. */
const ID_FIELDS = ['transactionId', 'id', 'txid', 'endToEndId', 'e2eid', 'rtrId', 'existingTransactionId']
function candidates (s: Stored, body: unknown): string[] {
  const out: string[] = []
  const push = (v: unknown): void => { if ((typeof v === 'string' && v !== '') || typeof v === 'number') out.push(String(v)) }
  const b = asRecord(body)
  const data = asRecord(b?.data)
  for (const source of [b, data, asRecord(b?.transaction), s.params]) {
    if (source) for (const field of ID_FIELDS) push(source[field])
  }
  return out
}

function statusMatches (status: number, wanted: string | number): boolean {
  const w = String(wanted).toLowerCase()
  return /^[1-5]xx$/.test(w) ? Math.floor(status / 100) === Number(w[0]) : status === Number(w)
}

function pathMatches (path: string, wanted: string): boolean {
  return wanted.endsWith('*') ? path.startsWith(wanted.slice(0, -1)) : path === wanted
}

function matchesRecorded (s: Stored, f: JournalFilter): boolean {
  return (f.accountId === undefined || s.accountId === f.accountId) &&
    (f.method === undefined || s.method === f.method.toUpperCase()) &&
    (f.path === undefined || pathMatches(s.path, f.path)) &&
    (f.status === undefined || statusMatches(s.status, f.status)) &&
    (f.scenario === undefined || s.scenarios.includes(f.scenario))
}

function matchesAfterRead (e: JournalEntry, f: JournalFilter): boolean {
  return (f.errorCode === undefined || e.errorCode === f.errorCode) &&
    (f.transactionId === undefined || e.transactionId === f.transactionId)
}

/** The value at a dotted path of the request body (`details.key`), undefined when absent. */
function at (body: unknown, path: string): unknown {
  let v: unknown = body
  for (const part of path.split('.')) {
    const r = asRecord(v)
    if (!r || !Object.hasOwn(r, part)) return undefined
    v = r[part]
  }
  return v
}

function sameJson (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Each field of the matcher that the entry does not meet, with what was expected and what it had. */
export function differences (e: JournalEntry, m: Matcher): NearMiss['differences'] {
  const out: NearMiss['differences'] = []
  const check = (field: string, expected: unknown, actual: unknown, ok: boolean): void => { if (!ok) out.push({ field, expected, actual }) }
  if (m.accountId !== undefined) check('accountId', m.accountId, e.accountId, e.accountId === m.accountId)
  if (m.method !== undefined) check('method', m.method.toUpperCase(), e.method, e.method === m.method.toUpperCase())
  if (m.path !== undefined) check('path', m.path, e.path, pathMatches(e.path, m.path))
  if (m.status !== undefined) check('status', m.status, e.status, statusMatches(e.status, m.status))
  if (m.scenario !== undefined) check('scenario', m.scenario, e.scenarios, e.scenarios.includes(m.scenario))
  if (m.errorCode !== undefined) check('errorCode', m.errorCode, e.errorCode, e.errorCode === m.errorCode)
  if (m.transactionId !== undefined) check('transactionId', m.transactionId, e.transactionId, e.transactionId === m.transactionId)
  for (const [field, expected] of Object.entries(m.bodyContains ?? {})) {
    const actual = at(e.request.body, field)
    check(`body.${field}`, expected, actual ?? null, sameJson(actual, expected))
  }
  return out
}
