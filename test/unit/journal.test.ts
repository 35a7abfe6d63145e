import t from 'tap'
import { RequestJournal, type JournalEntry } from '../../server/services/journal.js'

/** The capped request journal behind GET /__sandbox/requests: newest first, filters, capacity. */

const entry = (n: number, accountId: number | null = null): JournalEntry =>
  ({ requestId: `r${n}`, at: '2026-03-10T15:00:00.000Z', method: 'GET', path: `/p/${n}`, statusCode: 200, durationMs: 1, accountId, scenario: null })

t.test('newest first, and the oldest entries fall off at capacity', async t => {
  const j = new RequestJournal(3)
  for (let i = 1; i <= 7; i++) j.record(entry(i))
  t.same(j.list().map(e => e.requestId), ['r7', 'r6', 'r5'])
  j.record(entry(8))
  t.same(j.list().map(e => e.requestId), ['r8', 'r7', 'r6'])
})

t.test('filters by account and limit', async t => {
  const j = new RequestJournal(10)
  for (let i = 1; i <= 6; i++) j.record(entry(i, i % 2 === 0 ? 2 : 3))
  t.same(j.list({ accountId: 2 }).map(e => e.requestId), ['r6', 'r4', 'r2'])
  t.same(j.list({ accountId: 2, limit: 2 }).map(e => e.requestId), ['r6', 'r4'])
  t.same(j.list({ limit: 1 }).map(e => e.requestId), ['r6'])
  t.same(j.list({ accountId: 9 }), [])
})

t.test('clear, and a zero capacity keeps nothing', async t => {
  const j = new RequestJournal(2)
  j.record(entry(1))
  j.clear()
  t.same(j.list(), [])
  j.record(entry(2))
  t.same(j.list().map(e => e.requestId), ['r2'])
  const none = new RequestJournal(0)
  none.record(entry(1))
  t.same(none.list(), [])
})
