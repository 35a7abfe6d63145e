import t from 'tap'
import { runKillLoop } from './kill-loop.js'

/**
 * A few rounds of the kill -9 loop (test/reliability/kill-loop.ts) in every test run; the long run
 * whose figures docs/reliability.md gives is `npm run killtest -- N`.
 */
t.test('SIGKILL at random moments, compactions included, loses no answered write and pays nothing twice', async t => {
  const result = await runKillLoop({ rounds: 3, log: line => t.comment(line) })
  t.equal(result.rounds, 3)
  t.ok(result.answered > 50, `${result.answered} writes answered`)
  t.same(result.unexpected, [], 'every request before a kill was answered as expected')
  t.same(result.lost, [], 'every answered write is there after the restart')
  t.same(result.duplicates, [], 'a retried externalId or idempotency key gives the original back')
  t.same(result.ledger, [], 'the ledger invariant holds for every account')
})
