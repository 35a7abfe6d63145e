import t, { type Test } from 'tap'
import { KeyIndex, RecordLists, type Derived } from '../../server/store/derived.js'
import { Lifecycles } from '../../server/store/lifecycle.js'
import { emptyState, type PayloadLocation } from '../../server/store/state.js'
import { addAccount, engine, T0 } from './services/harness.js'

/**
 * The indexed queries the lists of BACEN's read (store/derived.ts): an account's records created
 * within a range of instants, found by a binary search of its list (a record read per step, then
 * those answered), still right for a list an imported document holds out of order; the records a key
 * index holds now; and a page the last made first.
 */
const MIN = 60_000
const at = (minute: number): string => new Date(T0 + minute * MIN).toISOString()
const location = (id: number, accountId: number, minute: number): PayloadLocation =>
  ({ id, accountId, tipoCob: 'cob', location: `pix.example.com/qr/v2/token${id}`, createdAt: at(minute) })

async function keeping<K extends Record<string, Derived>> (t: Test, build: (e: Awaited<ReturnType<typeof engine>>) => K) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const kept = build(e)
  const lifecycle = new Lifecycles([{ derived: Object.values(kept) }])
  e.store.onRestored(restored => { if (!restored.whole) lifecycle.restored(restored); else lifecycle.load() })
  e.store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  return { ...e, lifecycle, ...kept }
}

t.test('an account\'s records within a range of instants: a binary search of its list, what it answers read', async t => {
  let reads = 0
  const { store, lifecycle, made } = await keeping(t, ({ store }) => ({
    made: new RecordLists(store, 'locations', loc => String(loc.accountId), loc => { reads++; return loc.createdAt }),
  }))
  // Account 1: a location a minute for 1000 minutes; account 2: one between each.
  store.transact(() => {
    for (let m = 0; m < 1000; m++) {
      made.add(store.add('locations', location(2 * m + 1, 1, m)))
      made.add(store.add('locations', location(2 * m + 2, 2, m)))
    }
  })
  reads = 0
  const range = made.within('1', { from: T0 + 500 * MIN, to: T0 + 504 * MIN })
  t.same(range.map(l => l.id), [1001, 1003, 1005, 1007, 1009], 'both ends included, oldest first, the account\'s own')
  t.ok(reads <= 2 * 11 + 6, `a search (${reads} instants read of 1000)`)
  t.same(made.within('1', { from: T0 + 2000 * MIN, to: T0 + 3000 * MIN }), [], 'after the last')
  t.same(made.within('1', { from: -Infinity, to: T0 }).map(l => l.id), [1], 'an open bound')
  t.same(made.within('3', { from: -Infinity, to: Infinity }), [], 'an account with none')

  // An imported document may hold an account's records out of the order of their instants: read whole then.
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, locations: { 1: location(1, 1, 30), 2: location(2, 1, 10), 3: location(3, 1, 20) } }))
  lifecycle.load()
  t.same(made.within('1', { from: T0 + 15 * MIN, to: T0 + 30 * MIN }).map(l => l.id), [1, 3], 'the order they were made, those within')
  // A rollback and an account's removal: the lists follow.
  t.throws(() => store.transact(() => { made.add(store.add('locations', location(4, 1, 40))); throw new Error('late') }))
  t.same(made.within('1', { from: -Infinity, to: Infinity }).map(l => l.id), [1, 2, 3], 'what a rollback took away is gone')
  store.transact(() => store.removeAccount(1))
  t.same(made.within('1', { from: -Infinity, to: Infinity }), [], 'an account removed')
})

t.test('the records a key index holds now, of one scope or every one, and a page the last made first', async t => {
  const { store, live, made } = await keeping(t, ({ store }) => ({
    live: new KeyIndex(store, 'locations', { keys: loc => String(loc.id), scope: loc => loc.accountId, holds: loc => loc.chargeId === undefined }),
    made: new RecordLists(store, 'locations', loc => ['all', String(loc.accountId)]),
  }))
  store.transact(() => {
    for (let id = 1; id <= 6; id++) {
      const loc = store.add('locations', location(id, id % 2 === 0 ? 2 : 1, id))
      live.follow(loc)
      made.add(loc)
    }
    store.patch('locations', 3, l => { l.chargeId = 'c3' })
    live.follow(store.data.locations[3])
  })
  t.same([...live.indexed(1)].map(l => l.id).sort(), [1, 5], 'of account 1: those that hold')
  t.same([...live.indexed()].map(l => l.id).sort(), [1, 2, 4, 5, 6], 'of every account')
  t.same([...live.indexed(9)], [], 'a scope with none')
  const first = made.newestFirst('all', 4)
  t.same(first.records.map(l => l.id), [6, 5, 4, 3])
  const next = made.newestFirst('all', 4, first.nextCursor)
  t.same([next.records.map(l => l.id), next.nextCursor], [[2, 1], undefined], 'the last page')
  t.same(made.listed('2').map(l => l.id), [2, 4, 6])
})
