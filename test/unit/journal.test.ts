import t from 'tap'
import { BYTES_PER_ENTRY, RequestJournal, type RecordedRequest } from '../../server/journal/journal.js'
import { transactionLookup } from '../../server/journal/transactions.js'
import { Store } from '../../server/store/store.js'
import { addAccount, addReceived } from './services/harness.js'

/** The request journal behind /__sandbox/requests: order, `since`, filters, caps per account, count, verify, clear. */

const WALL0 = Date.parse('2026-03-10T15:00:00.000Z')
const entry = (n: number, accountId: number | null = null, more: Partial<RecordedRequest> = {}): RecordedRequest => ({
  requestId: `r${n}`,
  atMs: WALL0,
  wallMs: WALL0 + n * 1000,
  method: 'GET',
  path: `/p/${n}`,
  query: {},
  route: null,
  params: {},
  status: 200,
  durationMs: 1,
  accountId,
  tokenId: null,
  idempotencyKey: null,
  externalId: null,
  scenarios: [],
  errorCode: null,
  requestHeaders: {},
  requestText: null,
  responseHeaders: {},
  responseText: null,
  ...more,
})
const ids = (list: Array<{ requestId: string }>): string[] => list.map(e => e.requestId)

t.test('newest first, and the oldest entries of an account fall off at capacity', async t => {
  const j = new RequestJournal(3)
  for (let i = 1; i <= 7; i++) j.record(entry(i))
  t.same(ids(j.list()), ['r7', 'r6', 'r5'])
  j.record(entry(8))
  t.same(ids(j.list()), ['r8', 'r7', 'r6'])
  // Well past the capacity (the buckets are trimmed in batches): still exactly the newest three.
  for (let i = 9; i <= 600; i++) j.record(entry(i))
  t.same(ids(j.list()), ['r600', 'r599', 'r598'])
  t.equal(j.get(1), undefined, 'an entry pushed out is gone for get too')
})

t.test('the cap is per account: a busy account never pushes a quiet one out', async t => {
  const j = new RequestJournal(2)
  j.record(entry(1, 5))
  for (let i = 2; i <= 50; i++) j.record(entry(i, 6))
  t.same(ids(j.list({ accountId: 5 })), ['r1'])
  t.same(ids(j.list({ accountId: 6 })), ['r50', 'r49'])
  t.same(ids(j.list()), ['r50', 'r49', 'r1'])
})

t.test('filters by account, method, path prefix, status class, scenario, and limit', async t => {
  const j = new RequestJournal(10)
  for (let i = 1; i <= 6; i++) j.record(entry(i, i % 2 === 0 ? 2 : 3, { method: i <= 3 ? 'POST' : 'GET', status: i === 5 ? 422 : 201, scenarios: i === 5 ? ['INSUFFICIENT_FUNDS'] : [] }))
  t.same(ids(j.list({ accountId: 2 })), ['r6', 'r4', 'r2'])
  t.same(ids(j.list({ accountId: 2 }, { limit: 2 })), ['r6', 'r4'])
  t.same(ids(j.list({}, { limit: 1 })), ['r6'])
  t.same(ids(j.list({ accountId: 9 })), [])
  t.same(ids(j.list({ method: 'post' })), ['r3', 'r2', 'r1'])
  t.same(ids(j.list({ path: '/p/1' })), ['r1'], 'an exact path')
  t.same(ids(j.list({ path: '/p/*' })).length, 6, 'a prefix')
  t.same(ids(j.list({ status: '4xx' })), ['r5'])
  t.same(ids(j.list({ status: 201 })).length, 5)
  t.same(ids(j.list({ scenario: 'INSUFFICIENT_FUNDS' })), ['r5'])
})

t.test('since: strictly after an id or a wall time, oldest first', async t => {
  const j = new RequestJournal(10)
  for (let i = 1; i <= 5; i++) j.record(entry(i))
  const [third] = j.list({ path: '/p/3' })
  t.same(ids(j.list({}, { since: { id: third.id } })), ['r4', 'r5'])
  t.same(ids(j.list({}, { since: { id: third.id }, limit: 1 })), ['r4'], 'a page of the oldest after it')
  t.same(ids(j.list({}, { since: { wallMs: WALL0 + 2000 } })), ['r3', 'r4', 'r5'], 'an entry at exactly that instant is not after it')
  t.same(j.list({}, { since: { id: 5 } }), [])
})

t.test('a bucket is bounded in bytes too: padded entries push out their own bucket\'s oldest sooner', async t => {
  const j = new RequestJournal(10)
  const budget = 10 * BYTES_PER_ENTRY
  const pad = JSON.stringify({ pad: 'x'.repeat(60 * 1024) })
  j.record(entry(1, 5))
  for (let i = 2; i <= 40; i++) j.record(entry(i, null, { requestText: pad, responseText: pad }))
  const kept = j.list({}, { limit: 100 }).filter(e => e.accountId === null)
  t.ok(kept.length >= 1 && kept.length * 2 * pad.length <= budget, `${kept.length} padded entries kept, within ${budget} bytes`)
  t.equal(kept[0].requestId, 'r40', 'the newest kept')
  t.same(ids(j.list({ accountId: 5 })), ['r1'], 'another bucket untouched')
  const one = new RequestJournal(1)
  one.record(entry(1, null, { requestText: pad }))
  t.same(ids(one.list()), ['r1'], 'an entry heavier than its bucket\'s budget alone is still kept')
})

t.test('only existing accounts have a bucket: other ids are of no account, and the buckets of accounts gone are dropped', async t => {
  const accounts = new Set([1, 2])
  const j = new RequestJournal(10, () => null, id => accounts.has(id))
  for (const [n, id] of [[1, 1], [2, 3], [3, 1.5], [4, -1], [5, 2 ** 53], [6, Number.NaN], [7, 2]] as Array<[number, number]>) j.record(entry(n, id))
  t.same(j.list().map(e => [e.requestId, e.accountId]), [['r7', 2], ['r6', null], ['r5', null], ['r4', null], ['r3', null], ['r2', null], ['r1', 1]])
  // Account 1 is gone (a snapshot import replaced the accounts): its entries go once the buckets have grown.
  accounts.delete(1)
  for (let id = 100; id < 140; id++) {
    accounts.add(id)
    j.record(entry(id, id))
  }
  t.same(j.list({ accountId: 1 }), [])
  t.equal(j.list({ accountId: 2 }).length, 1, 'an account that still exists keeps its entries')
})

t.test('clear one account, or all; a zero capacity keeps nothing', async t => {
  const j = new RequestJournal(5)
  j.record(entry(1, 1))
  j.record(entry(2, 2))
  j.record(entry(3))
  t.equal(j.clear(1), 1)
  t.same(ids(j.list()), ['r3', 'r2'])
  t.equal(j.clear(), 2)
  t.same(j.list(), [])
  const none = new RequestJournal(0)
  none.record(entry(1))
  t.same(none.list(), [])
})

t.test('count, and verify with near misses ordered by how close they came', async t => {
  const j = new RequestJournal(10)
  j.record(entry(1, 7, { method: 'POST', path: '/api/pix/cash-out', status: 201, requestText: JSON.stringify({ value: 10, details: { key: 'a@b.c' } }) }))
  j.record(entry(2, 7, { method: 'POST', path: '/api/pix/cash-out', status: 422, requestText: JSON.stringify({ value: 99, details: { key: 'a@b.c' } }) }))
  j.record(entry(3, 8, { method: 'GET', path: '/balance', status: 200 }))
  t.equal(j.count({ method: 'POST', path: '/api/pix/cash-out' }), 2)
  t.equal(j.count({ bodyContains: { 'details.key': 'a@b.c', value: 10 } }), 1, 'dotted paths into the body, values compared as JSON')
  t.equal(j.count({ bodyContains: { 'details.missing': null } }), 0, 'an absent field matches nothing')
  t.equal(j.count({}), 3)

  t.same(j.verify({ accountId: 7, status: 201 }, { times: 1 }), { count: 1, ok: true, nearMisses: [] })
  t.equal(j.verify({ accountId: 7 }, { atLeast: 2, atMost: 2 }).ok, true)
  t.equal(j.verify({ accountId: 9 }, {}).ok, false, 'with no count given, at least one')
  const miss = j.verify({ accountId: 7, method: 'POST', bodyContains: { value: 50 } }, { times: 1 })
  t.equal(miss.ok, false)
  t.equal(miss.count, 0)
  t.same(miss.nearMisses.map(m => m.entry.requestId), ['r2', 'r1', 'r3'], 'one field apart (newest first), then three')
  t.same(miss.nearMisses[0].differences, [{ field: 'body.value', expected: 50, actual: 99 }])
  t.same(miss.nearMisses[2].differences.map(d => d.field), ['accountId', 'method', 'body.value'])
  t.equal(j.verify({ method: 'POST' }, { times: 1 }).ok, false, 'two matches where one was expected')
})

t.test('an entry is completed on first read: its answer parsed, its error code and transaction found', async t => {
  const seen: string[][] = []
  const j = new RequestJournal(10, (candidates) => { seen.push(candidates); return candidates.includes('tx-1') ? 'tx-1' : null })
  j.record(entry(1, 7, { status: 201, responseText: '{"transactionId":"tx-1","status":"PENDING","externalId":"ext-1"}' }))
  j.record(entry(2, 7, { status: 404, responseText: '{"statusCode":404,"code":"REQUEST_NOT_FOUND"}' }))
  j.record(entry(3, 7, { status: 200, responseText: 'not json' }))
  const [third, second, first] = j.list()
  t.same(first.response.body, { transactionId: 'tx-1', status: 'PENDING', externalId: 'ext-1' })
  t.equal(first.transactionId, 'tx-1')
  t.equal(first.externalId, 'ext-1', 'the externalId of the answer when the request had none')
  t.equal(second.errorCode, 'REQUEST_NOT_FOUND')
  t.equal(second.transactionId, null, 'an error names no transaction')
  t.equal(third.response.body, 'not json', 'an answer that is not JSON is kept as text')
  t.same(j.list({ transactionId: 'tx-1' }).map(e => e.requestId), ['r1'])
  t.equal(seen.length, 2, 'each entry is looked up once (the error is not)')
})

t.test('with the store\'s lookup (createSandbox\'s), an entry names the transaction of its own account only', async t => {
  const store = new Store()
  await store.open()
  addAccount(store, 1)
  addAccount(store, 2)
  const received = addReceived(store, { accountId: 1, amountCents: 100 })
  const j = new RequestJournal(10, transactionLookup(store))
  j.record(entry(1, 1, { status: 200, responseText: JSON.stringify({ endToEndId: received.endToEndId }) }))
  j.record(entry(2, 2, { status: 200, responseText: JSON.stringify({ transactionId: received.id }) }))
  j.record(entry(3, null, { status: 200, params: { id: received.id } }))
  j.record(entry(4, 1, { status: 200, params: { id: received.id } }))
  const byRequest = Object.fromEntries(j.list().map(e => [e.requestId, e.transactionId]))
  t.equal(byRequest.r1, received.id, 'found by the endToEndId of the answer')
  t.equal(byRequest.r2, null, 'another account\'s transaction is not named')
  t.equal(byRequest.r3, received.id, 'a control-plane request with no account names any account\'s')
  t.equal(byRequest.r4, received.id, 'by the route\'s parameter')
})
