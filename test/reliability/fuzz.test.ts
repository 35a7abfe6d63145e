import t from 'tap'
import { fuzz } from '../helpers/fuzz.js'

/**
 * The bounded fuzz run of docs/reliability.md (the long one: `npm run fuzz -- 20000`): generated requests over the
 * gateway, API Pix and the control plane, from a fixed seed, against one sandbox (test/helpers/fuzz.ts). No
 * 5xx but the ones a scenario asks for, every error in its family's shape, a token of API Pix keeping to
 * its account's records, and the ledger invariant and one txid per charge of a receiver after each batch of 100.
 */
const REQUESTS = 1500
const SEED = 13

t.test(`${REQUESTS} fuzzed requests over both families, API Pix and the control plane`, async t => {
  const report = await fuzz({ requests: REQUESTS, seed: SEED, batch: 100 })
  t.equal(report.requests, REQUESTS, 'every generated request was made')
  t.same(report.problems, [], `no problem found (statuses ${JSON.stringify(report.byStatus)})`)
  t.equal(report.serverErrors, 0, 'no 5xx that no scenario asked for')
  t.ok(report.batches >= REQUESTS / 100, `the ledger was checked ${report.batches} times`)
  t.ok(report.isolationChecked > REQUESTS / 5, `${report.isolationChecked} requests of API Pix with a token kept to their account (in the problems otherwise)`)
  t.same(report.txidDuplicates, [], 'no receiver holds a txid twice across cob, cobv, cobr and cash-in')
  const ok = Object.entries(report.byStatus).filter(([s]) => Number(s) < 300).reduce((n, [, c]) => n + c, 0)
  t.ok(ok > REQUESTS / 5, `${ok} requests succeeded: the run reaches past validation`)
})
