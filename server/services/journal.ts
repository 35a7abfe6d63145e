/**
 * A capped journal of recent requests for `GET /__sandbox/requests`. It records what a test needs to
 * see (method, path, status, account, scenario, duration) and, by construction, no header or body:
 * secrets (clientSecret, Authorization, private keys) cannot leak through it.
 */
export interface JournalEntry {
  requestId: string
  at: string
  method: string
  path: string
  statusCode: number
  durationMs: number
  accountId: number | null
  scenario: string | null
}

export class RequestJournal {
  private entries: JournalEntry[] = []
  private next = 0

  constructor (private readonly capacity: number) {}

  record (entry: JournalEntry): void {
    if (this.capacity === 0) return
    if (this.entries.length < this.capacity) this.entries.push(entry)
    else this.entries[this.next] = entry
    this.next = (this.next + 1) % this.capacity
  }

  /** Newest first. */
  list (filter: { accountId?: number, limit?: number } = {}): JournalEntry[] {
    const ordered = [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)].reverse()
    const matching = filter.accountId === undefined ? ordered : ordered.filter(e => e.accountId === filter.accountId)
    return matching.slice(0, filter.limit ?? ordered.length)
  }

  clear (): void {
    this.entries = []
    this.next = 0
  }
}
