import t from 'tap'
import { DeliveryLog } from '../../server/webhooks/delivery-log.js'
import { Store } from '../../server/store/store.js'
import type { Delivery, DeliveryStatus } from '../../server/webhooks/types.js'

/**
 * The delivery log's filtered pages (GET /__sandbox/webhooks/deliveries, a long-poll's wait) read the
 * newest deliveries of each account's list until they have the page: what they cost is what they
 * answer, not the whole log. Each delivery here counts how often a filter read it.
 */

const AT = '2026-03-10T15:00:00.000Z'

async function logOf (accounts: number, perAccount: number, statusOf: (i: number) => DeliveryStatus) {
  const store = new Store()
  await store.open()
  const log = new DeliveryLog(store, () => 10_000)
  let reads = 0
  let seq = 0
  store.transact(() => {
    for (let i = 0; i < perAccount; i++) {
      for (let accountId = 1; accountId <= accounts; accountId++) {
        seq++
        const d: Delivery = { id: `d${seq}`, seq, accountId, eventType: 'cash_in', eventId: `e${seq}`, transactionId: null, webhookId: null, url: null, status: statusOf(i), requestHeaders: {}, body: {}, attempts: [], nextAttemptAt: null, scenarios: [], createdAt: AT, updatedAt: AT }
        log.add(new Proxy(d, { get: (target, key, receiver) => { if (key === 'status') reads++; return Reflect.get(target, key, receiver) } }))
      }
    }
  })
  return { log, reads: () => reads, reset: () => { reads = 0 } }
}

t.test('a page of deliveries by status reads the newest of each account\'s list until it has the page', async t => {
  const { log, reads, reset } = await logOf(3, 400, i => i % 2 === 0 ? 'failed' : 'delivered')
  reset()
  const one = log.query({ accountId: 2, status: 'failed' }, 5)
  t.same(one.map(d => d.seq), [1196, 1190, 1184, 1178, 1172], 'the account\'s newest failed, newest first')
  t.ok(reads() <= 10, `an account's page of 5 reads 10 deliveries at most (${reads()})`)
  reset()
  const every = log.query({ status: 'delivered' }, 4)
  t.same(every.map(d => d.seq), [1200, 1199, 1198, 1194], 'every account\'s newest delivered, newest first')
  t.ok(reads() <= 3 * 8, `every account's page of 4 reads 8 of each at most (${reads()})`)
  reset()
  t.same(log.query({ status: 'pending' }, 1), [], 'none pending: each list read whole, once')
  t.equal(reads(), 1200)
})
