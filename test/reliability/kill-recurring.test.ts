import t from 'tap'
import { runRecurringKillLoop } from './kill-loop-recurring.js'

/**
 * A few rounds of the kill -9 loop during Pix Automático's debits (test/reliability/kill-loop-recurring.ts)
 * in every test run; the long run is `npm run killtest -- N recurring`.
 */
t.test('SIGKILL while recurring charges are created and debited loses no answered charge and debits none twice', async t => {
  const result = await runRecurringKillLoop({ rounds: 2, log: line => t.comment(line) })
  t.equal(result.rounds, 2)
  t.ok(result.answered >= 20, `${result.answered} charges answered`)
  t.ok(result.days >= 6, `the clock moved ${result.days} days under load`)
  t.same(result.unexpected, [], 'every request before a kill was answered as expected')
  t.same(result.lost, [], 'every answered charge is there after each restart, and debited once due')
  t.same(result.repeated, [], 'no charge debited twice: one PIX each, and the money of the paid charges alone')
  t.same(result.ledger, [], 'the ledger invariant holds for every account')
  t.ok(result.debited >= result.answered, `${result.debited} charges debited by the end: every answered one (and any whose answer a kill cut off)`)
})
