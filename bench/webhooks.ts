/**
 * Webhook delivery figures: `node --import tsx bench/webhooks.ts`.
 * The sandbox runs in this process with a running clock; the receiver runs in a child process (so it
 * does not share the sandbox's event loop) and reports when each event arrived, on the same
 * high-resolution wall clock (performance.timeOrigin + performance.now()). Two measures:
 *   - burst: N events emitted at once; deliveries per second until the last one arrives, and the
 *     latency from emit to receipt under that load;
 *   - sequential: one event at a time, the next emitted when the previous arrived: the added latency
 *     of the delivery path on an idle sandbox.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { buildApp } from '../server/app.js'
import type { CashOutNotification } from '../server/schemas/webhooks.js'

const BURST = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000)
const SEQUENTIAL = Number(process.env.BENCH_WEBHOOK_SEQUENTIAL ?? 500)
const wallNow = () => performance.timeOrigin + performance.now()

const receiverSource = `
const http = require('node:http')
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now()
    res.writeHead(200).end('ok')
    process.send({ n: JSON.parse(Buffer.concat(chunks)).metadata.n, at })
  })
})
server.keepAliveTimeout = 30000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
`

function startReceiver (): Promise<{ child: ChildProcess, port: number }> {
  const child = spawn(process.execPath, ['-e', receiverSource], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise(resolve => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }))
  })
}

// A CashOut notification as a settlement sends it; its metadata carries the bench's sequence number.
const payload = (n: number): CashOutNotification => ({
  event: 'CashOut',
  status: 'CONFIRMED',
  transactionType: 'PIX',
  movementType: 'DEBIT',
  transactionId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  externalId: `bench-${n}`,
  endToEndId: 'E99999004202603101500abcdefghijk',
  pixKey: 'fulano@example.com',
  feeAmount: 0.5,
  originalAmount: 10,
  finalAmount: 10.5,
  processingDate: new Date().toISOString(),
  errorCode: null,
  errorMessage: null,
  counterpart: { name: 'FULANO DE TAL', document: '***.456.789-**', bank: { bankISPB: '00000000', bankName: 'BANCO', bankCode: '001', accountBranch: null, accountNumber: null } },
  metadata: { n },
})

function pct (sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`

async function main (): Promise<void> {
  const { child, port } = await startReceiver()
  const app = await buildApp({ config: { seed: 'bench', clock: 'running', deliveryLogSize: 1000 } })
  const reg = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: `http://127.0.0.1:${port}/hook`, headers: [{ key: 'X-Api-Key', value: 'bench' }] } })
  if (reg.statusCode !== 201) throw new Error(reg.body)

  const emittedAt = new Map<number, number>()
  const latencies: number[] = []
  let waiting: { n: number, resolve: () => void } | null = null
  let received = 0
  let allDone: (() => void) | null = null
  let target = 0
  child.on('message', (m: { n: number, at: number }) => {
    latencies.push(m.at - emittedAt.get(m.n)!)
    received++
    if (waiting && waiting.n === m.n) { const w = waiting; waiting = null; w.resolve() }
    if (allDone && received === target) allDone()
  })
  const emit = (n: number) => {
    emittedAt.set(n, wallNow())
    app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: String(n), payload: payload(n) })
  }

  // Warm-up: JIT and the connection pool.
  target = 200
  await new Promise<void>(resolve => { allDone = resolve; for (let n = 0; n < 200; n++) emit(n) })
  latencies.length = 0; received = 0; allDone = null

  // Sequential: the idle path.
  for (let i = 0; i < SEQUENTIAL; i++) {
    const n = 1_000_000 + i
    await new Promise<void>(resolve => { waiting = { n, resolve }; emit(n) })
  }
  const seq = [...latencies].sort((a, b) => a - b)
  latencies.length = 0; received = 0

  // Burst.
  target = BURST
  const t0 = wallNow()
  await new Promise<void>(resolve => { allDone = resolve; for (let i = 0; i < BURST; i++) emit(2_000_000 + i) })
  const elapsed = wallNow() - t0
  const burst = [...latencies].sort((a, b) => a - b)
  await app.sandbox.webhooks.idle()
  const failed = app.sandbox.webhooks.deliveries({ status: 'failed' }, 1_000_000).length

  console.log('| measure | value |')
  console.log('|---|---|')
  console.log(`| sequential events (idle path) | ${SEQUENTIAL} |`)
  console.log(`| emit -> receipt, p50 / p99 / max | ${fmt(pct(seq, 0.5))} / ${fmt(pct(seq, 0.99))} / ${fmt(seq[seq.length - 1])} |`)
  console.log(`| burst events | ${BURST} |`)
  console.log(`| burst deliveries per second | ${Math.round(BURST / (elapsed / 1000))} |`)
  console.log(`| burst emit -> receipt, p50 / p99 | ${fmt(pct(burst, 0.5))} / ${fmt(pct(burst, 0.99))} |`)
  console.log(`| failed deliveries | ${failed} |`)
  console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`)
  await app.close()
  child.disconnect()
}

main().catch(err => { console.error(err); process.exit(1) })
