import { runKillLoop } from './kill-loop.js'
import { runRecurringKillLoop } from './kill-loop-recurring.js'

/**
 * `npm run killtest -- N [loop]`: N rounds of a kill -9 loop (default 20), then the figures docs/reliability.md
 * quotes. `payouts` (the default): cash-outs, transfers, incoming PIX and
 * refunds (kill-loop.ts); `recurring`: Pix Automático's recurring charges and their debits
 * (kill-loop-recurring.ts). Exits 1 if anything answered was lost or paid twice.
 */
const rounds = Number(process.argv[2] ?? 20)
const loop = process.argv[3] ?? 'payouts'
if (!Number.isInteger(rounds) || rounds < 1 || (loop !== 'payouts' && loop !== 'recurring')) {
  process.stderr.write('usage: npm run killtest -- <rounds> [payouts|recurring]\n')
  process.exit(2)
}
const started = Date.now()
const log = (line: string): void => { process.stdout.write(line + '\n') }
const minutes = (): string => ((Date.now() - started) / 60_000).toFixed(1)
let problems: string[]
if (loop === 'payouts') {
  const result = await runKillLoop({ rounds, log })
  problems = [...result.lost, ...result.duplicates, ...result.ledger, ...result.unexpected]
  process.stdout.write([
    '',
    `rounds: ${result.rounds} (${minutes()} min), kills during a compaction: ${result.killsDuringCompaction}`,
    `answered writes: ${result.answered}, cut off by a kill: ${result.cutOff}`,
    `lost: ${result.lost.length}, paid twice: ${result.duplicates.length}, ledger problems: ${result.ledger.length}, unexpected answers: ${result.unexpected.length}`,
  ].join('\n') + '\n')
} else {
  const result = await runRecurringKillLoop({ rounds, log })
  problems = [...result.lost, ...result.repeated, ...result.ledger, ...result.unexpected]
  process.stdout.write([
    '',
    `rounds: ${result.rounds} (${minutes()} min), days the clock moved under load: ${result.days}`,
    `recurring charges answered: ${result.answered}, debited by the end: ${result.debited}, requests cut off by a kill: ${result.cutOff}`,
    `lost: ${result.lost.length}, debited twice: ${result.repeated.length}, ledger problems: ${result.ledger.length}, unexpected answers: ${result.unexpected.length}`,
  ].join('\n') + '\n')
}
process.stdout.write([...problems.slice(0, 20).map(p => `  ${p}`), ''].join('\n'))
process.exit(problems.length === 0 ? 0 : 1)
