import { runKillLoop } from './kill-loop.js'

/**
 * `npm run killtest -- N`: N rounds of the kill -9 loop (default 20), then the figures docs/reliability.md
 * quotes. Exits 1 if anything answered was lost or paid twice.
 */
const rounds = Number(process.argv[2] ?? 20)
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write('usage: npm run killtest -- <rounds>\n')
  process.exit(2)
}
const started = Date.now()
const result = await runKillLoop({ rounds, log: line => process.stdout.write(line + '\n') })
const minutes = ((Date.now() - started) / 60_000).toFixed(1)
process.stdout.write([
  '',
  `rounds: ${result.rounds} (${minutes} min), kills during a compaction: ${result.killsDuringCompaction}`,
  `answered writes: ${result.answered}, cut off by a kill: ${result.cutOff}`,
  `lost: ${result.lost.length}, paid twice: ${result.duplicates.length}, ledger problems: ${result.ledger.length}, unexpected answers: ${result.unexpected.length}`,
  ...[...result.lost, ...result.duplicates, ...result.ledger, ...result.unexpected].slice(0, 20).map(p => `  ${p}`),
  '',
].join('\n'))
process.exit(result.lost.length + result.duplicates.length + result.ledger.length + result.unexpected.length === 0 ? 0 : 1)
