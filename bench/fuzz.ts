/**
 * The long fuzz run (docs/reliability.md): `npm run fuzz -- [requests] [seed]` (default 20,000 requests, seed
 * 13). The same run as test/reliability/fuzz.test.ts, longer: generated requests over the gateway, API
 * Pix and the control plane (test/helpers/fuzz.ts), checking that nothing answers 5xx unless a scenario asked
 * for it, that every error has its family's shape, that a token of API Pix keeps to its account, the
 * ledger invariant and that no receiver holds a txid twice after each batch. Prints the figures and
 * every problem and duplicate found, and exits 1 when there is one.
 */
import { fuzz } from '../test/helpers/fuzz.js'

const requests = Number(process.argv[2] ?? 20_000)
const seed = Number(process.argv[3] ?? 13)
if (!Number.isSafeInteger(requests) || requests < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write('usage: npm run fuzz -- [requests] [seed]\n')
  process.exit(2)
}

const report = await fuzz({
  requests,
  seed,
  batch: 100,
  progress: done => { if (done % 5000 === 0) process.stderr.write(`  ${done} requests\n`) },
})
const { problems, ...figures } = report
process.stdout.write(JSON.stringify(figures, null, 2) + '\n')
for (const p of problems) process.stdout.write(`PROBLEM ${p}\n`)
for (const d of report.txidDuplicates) process.stdout.write(`TXID DUPLICATE ${d}\n`)
process.stdout.write(`${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s (seed ${seed}): ${report.serverErrors} unrequested 5xx, ${report.requestedServerErrors} requested by a scenario, ${report.isolationChecked} API Pix requests checked for isolation, ${report.problemCount} problems, ${report.txidDuplicateCount} txids held twice by a receiver\n`)
process.exit(report.problemCount + report.txidDuplicateCount > 0 ? 1 : 0)
