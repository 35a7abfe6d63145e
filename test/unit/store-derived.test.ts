import t, { type Test } from 'tap'
import { Cache, DueJobs, KeyIndex, type Derived } from '../../server/store/derived.js'
import { RecordLists, StageLists } from '../../server/store/record-lists.js'
import { Lifecycles } from '../../server/store/lifecycle.js'
import { emptyState, type CobVBatch, type PayloadLocation, type TransactionOf } from '../../server/store/state.js'
import { addAccount, engine, T0 } from './services/harness.js'

/**
 * What a service keeps derived from the records (store/derived.ts), and the one lifecycle that keeps
 * it in line: rebuilt from the state after a load or a reset, mended for exactly the records a rollback
 * put back or an account's removal took away, each record as it is now.
 */
const AT = new Date(T0).toISOString()

const location = (id: number, accountId: number, chargeId?: string): PayloadLocation =>
  ({ id, accountId, tipoCob: 'cob', location: `pix.example.com/qr/v2/token${id}`, createdAt: AT, ...(chargeId !== undefined ? { chargeId } : {}) })

const batch = (accountId: number, id: number, txids: string[], dueAt?: string): CobVBatch =>
  ({ key: `${accountId}:${id}`, id, accountId, descricao: 'lote', createdAt: AT, host: 'pix.example.com', items: txids.map(txid => ({ txid, status: 'EM_PROCESSAMENTO' as const })), ...(dueAt !== undefined ? { dueAt } : {}) })

const cashOut = (id: string, accountId: number, seq: number, dueAt?: string): TransactionOf<'CASH_OUT'> =>
  ({ id, seq, accountId, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: { keyType: 'EMAIL', name: 'N', document: '52998224725' }, createdAt: AT, updatedAt: AT, history: [], ...(dueAt !== undefined ? { dueAt } : {}) })

/** A store with accounts 1 and 2, and a lifecycle of one service that keeps `derived`, wired as createSandbox wires it. */
async function keeping<K extends Record<string, Derived>> (t: Test, build: (e: Awaited<ReturnType<typeof engine>>) => K) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const kept = build(e)
  const lifecycle = new Lifecycles([{ derived: Object.values(kept) }])
  e.store.onRestored(restored => {
    if (!restored.whole) lifecycle.restored(restored)
    else lifecycle.load()
  })
  e.store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  return { ...e, lifecycle, ...kept }
}

const fails = (t: Test, fn: () => void): void => { t.throws(fn, { message: 'a late step fails' }) }
const late = (): never => { throw new Error('a late step fails') }

t.test('a key index: followed on each write, built anew from the state on a load, and only while its record holds', async t => {
  const { store, lifecycle, byToken, bound } = await keeping(t, ({ store }) => ({
    byToken: new KeyIndex(store, 'locations', { keys: loc => loc.location.split('/').pop() }),
    bound: new KeyIndex(store, 'locations', { keys: loc => loc.chargeId, holds: loc => loc.accountId === 1 }),
  }))
  store.transact(() => {
    byToken.follow(store.add('locations', location(1, 1, 'c1')))
    bound.follow(store.data.locations[1])
    byToken.follow(store.add('locations', location(2, 2, 'c2')))
    bound.follow(store.data.locations[2])
  })
  t.equal(byToken.record('token1')?.id, 1)
  t.equal(byToken.get('token2'), 2, 'the key of the record it names')
  t.equal(bound.get('c1'), 1)
  t.equal(bound.get('c2'), undefined, 'a record that does not hold is not indexed')
  store.transact(() => store.remove('locations', 1))
  t.equal(byToken.record('token1'), undefined, 'a record gone is not handed out, even before the index follows')
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, locations: { 3: location(3, 1, 'c3') } }))
  lifecycle.load()
  t.same([byToken.get('token2'), byToken.get('token3'), bound.get('c3')], [undefined, 3, 3], 'a load builds it anew from the records')
})

t.test('a key index mended after a rollback: a record the unit added leaves, one it changed comes back, one another took the key of is left alone', async t => {
  const { store, inFlight } = await keeping(t, ({ store }) => ({
    inFlight: new KeyIndex(store, 'transactions', { keys: tx => tx.externalId, holds: tx => tx.status === 'PENDING' }),
  }))
  // externalId stands for a key the record never changes (the charge a QR cash-out pays).
  store.transact(() => inFlight.follow(store.addTransaction({ ...cashOut('a', 1, 1), externalId: 'charge-1' })))
  t.equal(inFlight.get('charge-1'), 'a')
  fails(t, () => store.transact(() => {
    store.patch('transactions', 'a', d => { d.status = 'CONFIRMED' })
    inFlight.follow(store.transaction('a')!)
    inFlight.follow(store.addTransaction({ ...cashOut('b', 1, 2), externalId: 'charge-2' }))
    late()
  }))
  t.equal(inFlight.get('charge-1'), 'a', 'the pay-out put back to PENDING is in flight again')
  t.equal(inFlight.get('charge-2'), undefined, 'the pay-out the unit added is not')
  store.transact(() => {
    store.patch('transactions', 'a', d => { d.status = 'CONFIRMED' })
    inFlight.follow(store.transaction('a')!)
    inFlight.follow(store.addTransaction({ ...cashOut('c', 2, 3), externalId: 'charge-1' }))
  })
  fails(t, () => store.transact(() => {
    store.patch('transactions', 'a', d => { d.status = 'ERROR' })
    late()
  }))
  t.equal(inFlight.get('charge-1'), 'c', 'a record put back that does not hold leaves alone the key another took')
})

t.test('a key index of a record replaced under its key: the one put back keeps the keys it shares with its successor', async t => {
  const { store, byTxid } = await keeping(t, ({ store }) => ({
    byTxid: new KeyIndex(store, 'cobvBatches', { keys: b => b.items.map(i => i.txid), scope: b => b.accountId }),
  }))
  store.transact(() => byTxid.follow(store.add('cobvBatches', batch(1, 7, ['T1', 'T2']))))
  store.transact(() => byTxid.follow(store.add('cobvBatches', batch(2, 7, ['T1']))))
  t.same([byTxid.get('T1', 1), byTxid.get('T2', 1), byTxid.get('T1', 2), byTxid.get('T3', 1)], ['1:7', '1:7', '2:7', undefined], 'keys are unique within their scope')
  fails(t, () => store.transact(() => {
    byTxid.follow(store.put('cobvBatches', batch(1, 7, ['T1', 'T2'], AT)))
    late()
  }))
  t.same([byTxid.get('T1', 1), byTxid.get('T2', 1)], ['1:7', '1:7'], 'the batch put back is still found by its txids')
  t.equal(byTxid.record('T1', 1), store.data.cobvBatches['1:7'])
  store.transact(() => store.removeAccount(1))
  t.same([byTxid.get('T1', 1), byTxid.get('T1', 2)], [undefined, '2:7'], 'an account\'s removal takes its entries, and only its')
})

t.test('record lists keep the store\'s order through rollbacks and removals', async t => {
  const { store, byAccount } = await keeping(t, ({ store }) => ({
    byAccount: new RecordLists(store, 'locations', loc => ['all', String(loc.accountId)]),
  }))
  store.transact(() => { for (const [id, accountId] of [[1, 1], [2, 2], [3, 1], [4, 1]]) byAccount.add(store.add('locations', location(id, accountId))) })
  t.same([byAccount.of('all'), byAccount.of('1'), byAccount.of('2')], [[1, 2, 3, 4], [1, 3, 4], [2]])
  fails(t, () => store.transact(() => {
    byAccount.add(store.add('locations', location(5, 2)))
    late()
  }))
  t.same([byAccount.of('all'), byAccount.of('2')], [[1, 2, 3, 4], [2]], 'a record the failed unit added leaves its lists')
  fails(t, () => store.transact(() => {
    store.removeAccount(1)
    t.same([byAccount.of('all'), byAccount.of('1')], [[2], []], 'an account\'s removal takes its records from every list')
    late()
  }))
  t.same([byAccount.of('all'), byAccount.of('1'), byAccount.of('2')], [[1, 2, 3, 4], [1, 3, 4], [2]], 'put back, each at its place')
})

t.test('due jobs: one per record and purpose, following the record, run with the record as it is then, never for one gone', async t => {
  const ran: string[] = []
  const { store, scheduler, lifecycle, settlements } = await keeping(t, ({ store, scheduler }) => ({
    settlements: new DueJobs(store, scheduler, 'transactions', {
      purpose: 'settle',
      dueAt: tx => tx.status === 'PENDING' && tx.dueAt !== undefined ? Date.parse(tx.dueAt) : undefined,
      run: tx => {
        ran.push(tx.id)
        store.patch('transactions', tx.id, d => { d.status = 'CONFIRMED' })
      },
    }),
  }))
  const at = (ms: number) => new Date(T0 + ms).toISOString()
  store.transact(() => {
    for (const [id, ms] of [['a', 100], ['b', 200], ['c', 300]] as const) settlements.follow(store.addTransaction(cashOut(id, 1, ms, at(ms))))
    store.addTransaction(cashOut('no-due', 1, 4))
  })
  t.equal(scheduler.pending(), 3)
  store.transact(() => {
    store.patch('transactions', 'a', d => { d.dueAt = at(250) })
    settlements.follow(store.transaction('a')!)
  })
  t.equal(scheduler.pending(), 3, 'a later schedule takes the place of the one before')
  fails(t, () => store.transact(() => {
    store.patch('transactions', 'b', d => { d.status = 'ERROR' })
    settlements.follow(store.transaction('b')!)
    t.equal(scheduler.pending(), 2, 'a record with nothing due has no job')
    late()
  }))
  t.equal(scheduler.pending(), 3, 'a rollback puts back the job of the record it put back')
  store.transact(() => store.removeAccount(2))
  fails(t, () => store.transact(() => {
    store.removeAccount(1)
    t.equal(scheduler.pending(), 0, 'an account\'s removal cancels the jobs of its records')
    late()
  }))
  await scheduler.advance(260)
  t.same(ran, ['b', 'a'], 'each at its due time, the records put back due again')
  scheduler.clear()
  lifecycle.load()
  t.equal(scheduler.pending(), 1, 'a load schedules what is still due, and only that')
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts }))
  await scheduler.advance(100)
  t.same(ran, ['b', 'a'], 'a job whose record is gone does not run')
})

t.test('a cache is dropped when a record of its collection changes under it, and only then', async t => {
  let drops = 0
  const { store, lifecycle } = await keeping(t, () => ({ signers: new Cache('signingKeys', () => { drops++ }) }))
  fails(t, () => store.transact(() => {
    store.add('locations', location(1, 1))
    late()
  }))
  t.equal(drops, 0, 'a rollback of other records leaves it')
  fails(t, () => store.transact(() => {
    store.add('signingKeys', { id: 'k', alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }, createdAt: AT })
    late()
  }))
  t.equal(drops, 1, 'a rollback of one of its records drops it')
  lifecycle.reset()
  t.equal(drops, 2, 'so does a reset')
})

t.test('one order for all: each service\'s derived state before its own hook, service after service', async t => {
  const e = await engine(t)
  addAccount(e.store, 1)
  const steps: string[] = []
  const derived = (name: string) => [{ collection: 'locations' as const, rebuild: () => { steps.push(`${name}.rebuild`) }, mend: () => { steps.push(`${name}.mend`) } }]
  const lifecycle = new Lifecycles([
    { derived: derived('a'), afterLoad: () => { steps.push('a.afterLoad') }, afterReset: () => { steps.push('a.afterReset') }, forgetAccount: () => { steps.push('a.forgetAccount') } },
    { derived: derived('b'), afterRestore: () => { steps.push('b.afterRestore') } },
  ])
  e.store.onRestored(restored => lifecycle.restored(restored))
  e.store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  lifecycle.load()
  lifecycle.reset()
  t.same(steps.splice(0), ['a.rebuild', 'a.afterLoad', 'b.rebuild', 'a.rebuild', 'a.afterReset', 'b.rebuild'])
  fails(t, () => e.store.transact(() => {
    e.store.add('locations', location(1, 1))
    late()
  }))
  t.same(steps.splice(0), ['a.mend', 'b.mend', 'b.afterRestore'], 'mended for the records put back')
  fails(t, () => e.store.transact(() => {
    e.store.add('meds', { id: 1, accountId: 1, endToEnd: 'E', status: 'OPEN', reason: 'REFUND_REQUEST', cause: null, description: null, analysisResult: null, analysisDetails: null, requestingBank: { ispb: '1', name: 'B' }, contestedBank: { ispb: '2', name: 'C' }, originalTransaction: null, isReconciled: false, originalTransactionId: null, createdAt: AT, updatedAt: AT })
    late()
  }))
  t.same(steps.splice(0), ['b.afterRestore'], 'a derived state whose collection the rollback did not touch is left alone')
  e.store.transact(() => e.store.removeAccount(1))
  t.same(steps.splice(0), ['a.forgetAccount'], 'an account with no records of its collection: its hooks only')
})

/** A location made `minute` minutes after T0, for the lists read by instant. */
const MIN = 60_000
const madeAt = (id: number, accountId: number, minute: number): PayloadLocation =>
  ({ ...location(id, accountId), createdAt: new Date(T0 + minute * MIN).toISOString() })

t.test('an account\'s records within a range of instants: a binary search of its list, what it answers read', async t => {
  let reads = 0
  const { store, lifecycle, made } = await keeping(t, ({ store }) => ({
    made: new RecordLists(store, 'locations', loc => String(loc.accountId), loc => { reads++; return loc.createdAt }),
  }))
  // Account 1: a location a minute for 1000 minutes; account 2: one between each.
  store.transact(() => {
    for (let m = 0; m < 1000; m++) {
      made.add(store.add('locations', madeAt(2 * m + 1, 1, m)))
      made.add(store.add('locations', madeAt(2 * m + 2, 2, m)))
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
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, locations: { 1: madeAt(1, 1, 30), 2: madeAt(2, 1, 10), 3: madeAt(3, 1, 20) } }))
  lifecycle.load()
  t.same(made.within('1', { from: T0 + 15 * MIN, to: T0 + 30 * MIN }).map(l => l.id), [1, 3], 'the order they were made, those within')
  // A rollback and an account's removal: the lists follow.
  t.throws(() => store.transact(() => { made.add(store.add('locations', madeAt(4, 1, 40))); throw new Error('late') }))
  t.same(made.within('1', { from: -Infinity, to: Infinity }).map(l => l.id), [1, 2, 3], 'what a rollback took away is gone')
  store.transact(() => store.removeAccount(1))
  t.same(made.within('1', { from: -Infinity, to: Infinity }), [], 'an account removed')
})

t.test('a page of the records within a range, counted and read from either end: what it costs is the page\'s', async t => {
  let reads = 0
  const { store, lifecycle, made } = await keeping(t, ({ store }) => ({
    made: new RecordLists(store, 'locations', loc => String(loc.accountId), loc => { reads++; return loc.createdAt }),
  }))
  store.transact(() => { for (let m = 0; m < 1000; m++) made.add(store.add('locations', madeAt(m + 1, 1, m))) })
  reads = 0
  const range = { from: T0 + 100 * MIN, to: T0 + 199 * MIN }
  const newest = made.pageWithin('1', range, 10, 3, true)!
  t.same([newest.total, newest.records.map(l => l.id)], [100, [190, 189, 188]], 'the 11th to 13th newest of the 100 within')
  t.ok(reads <= 2 * 11 + 6, `a search (${reads} instants read of 1000)`)
  t.same(made.pageWithin('1', range, 0, 2, false)!.records.map(l => l.id), [101, 102], 'the oldest first')
  t.same(made.pageWithin('1', range, 98, 5, true)!.records.map(l => l.id), [102, 101], 'a page cut at the range\'s start')
  t.same(made.pageWithin('1', range, 98, 5, false)!.records.map(l => l.id), [199, 200], 'and at its end')
  t.same(made.pageWithin('1', range, 100, 5, true), { total: 100, records: [] }, 'past the last')
  t.same(made.pageWithin('2', range, 0, 5, true), { total: 0, records: [] }, 'a key with none')
  // Out of order (an import): no page, the caller reads the list whole.
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, locations: { 1: madeAt(1, 1, 30), 2: madeAt(2, 1, 10) } }))
  lifecycle.load()
  t.equal(made.pageWithin('1', { from: -Infinity, to: Infinity }, 0, 5, true), undefined)
})

t.test('the records a key index holds now, of one scope or every one, and a page the last made first', async t => {
  const { store, live, made } = await keeping(t, ({ store }) => ({
    live: new KeyIndex(store, 'locations', { keys: loc => String(loc.id), scope: loc => loc.accountId, holds: loc => loc.chargeId === undefined }),
    made: new RecordLists(store, 'locations', loc => ['all', String(loc.accountId)]),
  }))
  store.transact(() => {
    for (let id = 1; id <= 6; id++) {
      const loc = store.add('locations', madeAt(id, id % 2 === 0 ? 2 : 1, id))
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

t.test('lists that leave some records out: a rollback of one of those mends nothing and rebuilds nothing', async t => {
  const { store, some } = await keeping(t, ({ store }) => ({
    some: new RecordLists(store, 'locations', loc => loc.accountId === 1 ? String(loc.accountId) : []),
  }))
  store.transact(() => {
    for (const [id, accountId] of [[1, 1], [2, 2]]) some.add(store.add('locations', location(id, accountId)))
  })
  let rebuilt = 0
  const rebuild = some.rebuild.bind(some)
  some.rebuild = () => { rebuilt++; rebuild() }
  t.throws(() => store.transact(() => { store.patch('locations', 2, l => { l.chargeId = 'c2' }); late() }))
  t.equal(rebuilt, 0, 'a record listed under no key was put back: no list to mend')
  t.same(some.listed('1').map(l => l.id), [1])
})

t.test('stage lists: a record listed once it reaches the stage, in the order records reached it, through rollbacks, loads and removals', async t => {
  let reads = 0
  // CONFIRMED at `updatedAt` stands for a charge paid: the instant it reached the stage.
  const confirmedAt = (tx: TransactionOf<'CASH_OUT'>): number | undefined => { reads++; return tx.status === 'CONFIRMED' ? Date.parse(tx.updatedAt) : undefined }
  const { store, lifecycle, arrived } = await keeping(t, ({ store }) => ({
    arrived: new StageLists(store, 'transactions', { list: tx => String(tx.accountId), reached: tx => confirmedAt(tx as TransactionOf<'CASH_OUT'>), tie: tx => tx.seq }),
  }))
  const at = (m: number): string => new Date(T0 + m * MIN).toISOString()
  const confirm = (id: string, m: number): void => {
    store.patch('transactions', id, d => { d.status = 'CONFIRMED'; d.updatedAt = at(m) })
    arrived.follow(store.transaction(id)!)
  }
  const ids = (from = -Infinity, to = Infinity, account = '1') => arrived.within(account, { from, to }).map(tx => tx.id)
  store.transact(() => { for (const [id, accountId, seq] of [['a', 1, 1], ['b', 1, 2], ['c', 1, 3], ['d', 2, 4], ['e', 1, 5]] as const) arrived.follow(store.addTransaction(cashOut(id, accountId, seq))) })
  t.same(ids(), [], 'none reached it yet')
  store.transact(() => { confirm('c', 1); confirm('d', 1); confirm('b', 2); confirm('e', 3); confirm('a', 3) })
  t.same(ids(), ['c', 'b', 'a', 'e'], 'in the order they reached it; in one millisecond, in the order they were made')
  t.same(ids(), ['c', 'b', 'a', 'e'], 'a record followed again stays once')
  arrived.follow(store.transaction('a')!)
  t.same(ids(), ['c', 'b', 'a', 'e'], 'a record followed again stays once')
  reads = 0
  t.same(ids(T0 + 2 * MIN, T0 + 3 * MIN), ['b', 'a', 'e'], 'both ends included')
  t.same(ids(T0 + 4 * MIN), [], 'after the last')
  t.same(ids(-Infinity, Infinity, '2'), ['d'], 'the account\'s own')
  t.equal(reads, 0, 'a search of the instants kept: no record read to find them')

  // A rollback: the record the unit confirmed leaves (as it is put back, it never reached the stage); one added leaves.
  store.transact(() => arrived.follow(store.addTransaction(cashOut('f', 1, 6))))
  fails(t, () => store.transact(() => {
    confirm('f', 4)
    arrived.follow(store.addTransaction({ ...cashOut('g', 1, 7), status: 'CONFIRMED', updatedAt: at(4) }))
    t.same(ids(), ['c', 'b', 'a', 'e', 'f', 'g'])
    late()
  }))
  t.same(ids(), ['c', 'b', 'a', 'e'], 'what the failed unit made reach the stage is gone')
  fails(t, () => store.transact(() => {
    store.patch('transactions', 'b', d => { d.description = 'changed' })
    arrived.follow(store.transaction('b')!)
    late()
  }))
  t.same(ids(), ['c', 'b', 'a', 'e'], 'a record that had reached it before the unit keeps its place')

  // One that reaches it before the last (a clock started again earlier): at its place.
  store.transact(() => confirm('f', 2))
  t.same(ids(), ['c', 'b', 'f', 'a', 'e'])

  // A load: the lists sorted by the instants, whatever order the document holds the records in.
  const imported: Array<TransactionOf<'CASH_OUT'>> = [
    { ...cashOut('x', 1, 1), status: 'CONFIRMED', updatedAt: at(30) },
    { ...cashOut('y', 1, 2), status: 'CONFIRMED', updatedAt: at(10) },
    cashOut('z', 1, 3),
    { ...cashOut('w', 1, 4), status: 'CONFIRMED', updatedAt: at(10) },
  ]
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, transactions: Object.fromEntries(imported.map(tx => [tx.id, tx])) }))
  lifecycle.load()
  t.same(ids(), ['y', 'w', 'x'], 'sorted when built: one that never reached it is not listed')
  t.same(ids(T0 + 20 * MIN), ['x'])

  // An account's removal takes its list; put back by a failed unit, each at its place.
  fails(t, () => store.transact(() => {
    store.removeAccount(1)
    t.same(ids(), [], 'an account removed')
    late()
  }))
  t.same(ids(), ['y', 'w', 'x'], 'put back')
  store.transact(() => store.removeAccount(1))
  t.same(ids(), [])
})

t.test('stage lists whose list a record changes (a charge\'s stage): it moves to its place by creation, and a page of one list or several merged reads the page only', async t => {
  // Made a minute apart (two in one minute), listed by account and status: the status stands for a charge's stage.
  const made = (id: string, seq: number, minute: number, accountId = 1): TransactionOf<'CASH_OUT'> => ({ ...cashOut(id, accountId, seq), createdAt: new Date(T0 + minute * MIN).toISOString() })
  const { store, lifecycle, stages } = await keeping(t, ({ store }) => ({
    stages: new StageLists(store, 'transactions', { list: tx => `${tx.accountId}:${tx.status}`, reached: tx => Date.parse(tx.createdAt), tie: tx => tx.seq }),
  }))
  const move = (id: string, status: 'CONFIRMED' | 'ERROR' | 'PENDING'): void => {
    store.patch('transactions', id, d => { d.status = status })
    stages.follow(store.transaction(id)!)
  }
  const records = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id, i) => made(id, i + 1, i === 3 ? 2 : i))
  store.transact(() => { for (const r of records) stages.follow(store.addTransaction(r)); stages.follow(store.addTransaction(made('o', 9, 1, 2))) })
  store.transact(() => { for (const id of ['g', 'b', 'e']) move(id, 'CONFIRMED'); move('c', 'ERROR'); move('h', 'ERROR') })

  /** What a pass over the records would answer: those of the statuses within the range, by creation then seq, a page of them. */
  const oracle = (statuses: string[], from: number, to: number, offset: number, limit: number, newestFirst: boolean) => {
    const all = Object.values(store.data.transactions)
      .filter(tx => tx.accountId === 1 && statuses.includes(tx.status) && Date.parse(tx.createdAt) >= from && Date.parse(tx.createdAt) <= to)
      .sort((x, y) => Date.parse(x.createdAt) - Date.parse(y.createdAt) || x.seq - y.seq)
    if (newestFirst) all.reverse()
    return { total: all.length, ids: all.slice(offset, offset + limit).map(tx => tx.id) }
  }
  const page = (statuses: string[], from: number, to: number, offset: number, limit: number, newestFirst: boolean) => {
    const got = stages.pageWithin(statuses.map(s => `1:${s}`), { from, to }, offset, limit, newestFirst)
    return { total: got.total, ids: got.records.map(tx => tx.id) }
  }
  const everyPage = (label: string): void => {
    for (const statuses of [['PENDING'], ['CONFIRMED'], ['ERROR'], ['CONFIRMED', 'ERROR'], ['PENDING', 'CONFIRMED', 'ERROR'], ['REMOVED']]) {
      for (const [from, to] of [[-Infinity, Infinity], [T0 + 2 * MIN, T0 + 5 * MIN], [T0 + 20 * MIN, Infinity]]) {
        for (const [offset, limit] of [[0, 30], [1, 2], [3, 1], [7, 5]]) {
          for (const newestFirst of [true, false]) {
            t.same(page(statuses, from, to, offset, limit, newestFirst), oracle(statuses, from, to, offset, limit, newestFirst), `${label}: ${statuses.join('+')} ${from}..${to} ${offset}/${limit} ${newestFirst ? 'newest' : 'oldest'} first`)
          }
        }
      }
    }
  }
  t.same(page(['CONFIRMED'], -Infinity, Infinity, 0, 10, false).ids, ['b', 'e', 'g'], 'moved in another order, listed in the order made')
  t.same(page(['PENDING'], -Infinity, Infinity, 0, 10, false).ids, ['a', 'd', 'f'], 'the others stay in order; another account\'s apart')
  t.same(page(['CONFIRMED', 'ERROR'], -Infinity, Infinity, 0, 10, true).ids, ['h', 'g', 'e', 'c', 'b'], 'two lists read as one, the last made first')
  everyPage('moved')

  // A page reads its own records and no other.
  let read = 0
  const real = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(store), 'data') ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(store)), 'data')!
  Object.defineProperty(store, 'data', { configurable: true, get: () => new Proxy(real.get!.call(store), { get: (s, k) => k === 'transactions' ? new Proxy(s.transactions, { get: (r, id) => { read++; return Reflect.get(r, id) } }) : Reflect.get(s, k) }) })
  t.equal(stages.pageWithin(['1:CONFIRMED', '1:ERROR', '1:PENDING'], { from: -Infinity, to: Infinity }, 3, 2, true).records.length, 2)
  delete (store as unknown as Record<string, unknown>).data
  t.equal(read, 2, 'two records read for a page of two, at an offset, of three lists')

  // A move a failed unit made is undone: the record back in its list, at its place.
  fails(t, () => store.transact(() => {
    move('a', 'CONFIRMED')
    move('e', 'ERROR')
    t.same(page(['CONFIRMED'], -Infinity, Infinity, 0, 10, false).ids, ['a', 'b', 'g'])
    late()
  }))
  t.same(page(['CONFIRMED'], -Infinity, Infinity, 0, 10, false).ids, ['b', 'e', 'g'], 'put back')
  everyPage('after a rollback')
  store.transact(() => move('d', 'CONFIRMED'))
  everyPage('moved again')

  // Built anew from an imported document, whatever order it holds the records in; an account's removal empties its lists.
  const shuffled = Object.values(store.data.transactions).reverse().map(tx => structuredClone(tx) as TransactionOf<'CASH_OUT'>)
  store.transact(() => store.replace({ ...emptyState(), accounts: store.data.accounts, transactions: Object.fromEntries(shuffled.map(tx => [tx.id, tx])) }))
  lifecycle.load()
  everyPage('after a load')
  store.transact(() => store.removeAccount(1))
  t.same(page(['PENDING', 'CONFIRMED', 'ERROR'], -Infinity, Infinity, 0, 10, true), { total: 0, ids: [] }, 'the account removed')
  t.same(stages.pageWithin(['2:PENDING'], { from: -Infinity, to: Infinity }, 0, 10, true).records.map(tx => tx.id), ['o'], 'the other account\'s kept')
})
