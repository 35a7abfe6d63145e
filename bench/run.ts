/**
 * `npm run bench`: load figures of the sandbox against a bare Fastify baseline measured in the same
 * run (these machines are noisy, so only ratios are compared with targets). Prints a markdown table
 * and writes bench/results/latest.json. Not part of `npm test`.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir, cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const root = new URL('..', import.meta.url).pathname
const DURATION = Number(process.env.BENCH_SECONDS ?? 8)
const WARMUP = 2
let nextPort = 18100 + Math.floor(Math.random() * 500)

interface Proc { proc: ChildProcess, port: number, readyMs: number }

async function start (args: string[], env: Record<string, string> = {}, healthPath = '/__sandbox/health'): Promise<Proc> {
  const port = nextPort++
  const t0 = performance.now()
  const proc = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' }, stdio: ['ignore', 'ignore', 'inherit'] })
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${healthPath}`)
      if (res.ok) return { proc, port, readyMs: performance.now() - t0 }
    } catch {}
    if (performance.now() - t0 > 20_000) throw new Error(`${args.join(' ')} never became healthy`)
    await sleep(5)
  }
}

async function stop (p: Proc): Promise<void> {
  const exited = new Promise(resolve => p.proc.once('exit', resolve))
  p.proc.kill('SIGTERM')
  await exited
}

function rssMb (pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

interface Load { rps: number, p99: number, non2xx: number, total: number, ok: number }

/** A warm-up, then the measured run; `ok` counts the 2xx answers of both (what later checks expect). */
async function load (opts: autocannon.Options): Promise<Load> {
  const warm = await autocannon({ ...opts, connections: 10, duration: WARMUP })
  const r = await autocannon({ ...opts, connections: 10, duration: DURATION })
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, total: r.requests.total, ok: warm['2xx'] + r['2xx'] }
}

const cashOutBody = JSON.stringify({
  value: 1.23,
  externalId: 'bench-[<id>]',
  description: 'benchmark',
  details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' },
})

async function api (port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : null
}

/** A fresh account rich enough for any load, and its token. */
async function benchAccount (port: number): Promise<{ id: number, token: string }> {
  const a = await api(port, 'POST', '/__sandbox/accounts', { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } })
  const tok = await api(port, 'POST', '/api/auth/token', { clientId: a.clientId, clientSecret: a.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(a.certificate) })
  return { id: a.accountId, token: tok.access_token }
}

/** Counts distinct deliveries (a retry of a slow first attempt arrives twice with the same id). */
function receiver (): Promise<{ server: Server, port: number, count: () => number }> {
  const ids = new Set<string>()
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => { ids.add(String(req.headers['x-sandbox-delivery-id'])); res.writeHead(200).end() })
  })
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as any).port, count: () => ids.size })))
}

/**
 * The request journal's cost: cash-out on a sandbox whose journal keeps bodies (the default) and on one
 * with `--journal-bodies false`, both up at once and loaded in turns (on, off, off, on, on, off) so
 * that the machine's drift and the order fall on both alike. Answers the mean of each.
 */
/** CPU time the process has used so far (user + system), in ms: /proc/PID/stat, in clock ticks of 10 ms. */
function cpuMs (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

type Measured = Load & { cpuUsPerRequest: number }

async function journalBodies (sandboxArgs: string[]): Promise<{ withBodies: Measured, withoutBodies: Measured }> {
  const on = await start(sandboxArgs, { SANDBOX_SETTLEMENT_DELAY_MS: '10' })
  const off = await start([...sandboxArgs, '--journal-bodies', 'false'], { SANDBOX_SETTLEMENT_DELAY_MS: '10' })
  // CPU per request as well as requests per second: on a machine shared with other work, the sandbox's
  // own CPU time per answer moves far less with the neighbours' load than its throughput does.
  const runs: Record<'on' | 'off', Measured[]> = { on: [], off: [] }
  const accounts = { on: await benchAccount(on.port), off: await benchAccount(off.port) }
  for (let round = 0; round < 3; round++) {
    const order = round % 2 === 0 ? [['on', on], ['off', off]] as const : [['off', off], ['on', on]] as const
    for (const [which, p] of order) {
      const before = cpuMs(p.proc.pid!)
      const r = await load({ url: `http://127.0.0.1:${p.port}/api/pix/cash-out`, method: 'POST', headers: { authorization: `Bearer ${accounts[which].token}`, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })
      // load() answers `total` for the measured run only; its CPU covers the warm-up too (`ok` counts both).
      runs[which].push({ ...r, cpuUsPerRequest: ((cpuMs(p.proc.pid!) - before) * 1000) / Math.max(1, r.ok) })
    }
  }
  await stop(on)
  await stop(off)
  const avg = (xs: Measured[], f: (x: Measured) => number): number => xs.reduce((a, x) => a + f(x), 0) / xs.length
  const mean = (xs: Measured[]): Measured => ({ rps: avg(xs, x => x.rps), cpuUsPerRequest: avg(xs, x => x.cpuUsPerRequest), p99: Math.max(...xs.map(x => x.p99)), non2xx: xs.reduce((a, x) => a + x.non2xx, 0), total: xs.reduce((a, x) => a + x.total, 0), ok: xs.reduce((a, x) => a + x.ok, 0) })
  return { withBodies: mean(runs.on), withoutBodies: mean(runs.off) }
}

function journalRow (j: { withBodies: Measured, withoutBodies: Measured }): [string, string, string, string] {
  const { withBodies: on, withoutBodies: off } = j
  return [
    'cash-out, journal with bodies / without (--journal-bodies false)',
    `${Math.round(on.rps)} / ${Math.round(off.rps)} req/s, ${Math.round(on.cpuUsPerRequest)} / ${Math.round(off.cpuUsPerRequest)} µs of CPU per request, p99 ${on.p99} / ${off.p99} ms`,
    `${Math.round((on.rps / off.rps) * 100)}% of without (CPU per request ${Math.round((on.cpuUsPerRequest / off.cpuUsPerRequest) * 100)}%)`,
    '>= 90% of without',
  ]
}

async function main (): Promise<void> {
  if (process.argv.includes('journal')) {
    // `npm run bench -- journal`: only the journal's figure (a minute instead of the whole run).
    const j = await journalBodies(['dist/server/main.js', '--host', '127.0.0.1'])
    console.log(`\n| ${journalRow(j).join(' | ')} |`)
    return
  }
  const results: Record<string, unknown> = { machine: { cpus: cpus().length, model: cpus()[0]?.model, memGb: Math.round(totalmem() / 2 ** 30), node: process.version }, at: new Date().toISOString(), durationSeconds: DURATION }
  const sandboxArgs = ['dist/server/main.js', '--host', '127.0.0.1']

  // Baseline and start-up.
  // The baseline stays up and is measured again right before each figure it is compared with: over
  // a run of several minutes this machine's speed drifts by a third, and a ratio against a baseline
  // measured minutes earlier carries that drift.
  const base = await start(['bench/baseline.mjs'], {}, '/health')
  const measureBaseline = (): Promise<Load> => load({ url: `http://127.0.0.1:${base.port}/api/pix/cash-out`, method: 'POST', headers: { 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })
  const baselines: Record<string, Load> = {}
  const baseStarts: number[] = []
  for (let i = 0; i < 3; i++) { const p = await start(['bench/baseline.mjs'], {}, '/health'); baseStarts.push(p.readyMs); await stop(p) }
  const sbStarts: number[] = []
  for (let i = 0; i < 3; i++) { const p = await start(sandboxArgs); sbStarts.push(p.readyMs); await stop(p) }

  // Sandbox in memory.
  const sb = await start(sandboxArgs, { SANDBOX_SETTLEMENT_DELAY_MS: '10' })
  const idleRss = rssMb(sb.proc.pid!)
  const acct = await benchAccount(sb.port)
  const auth = { authorization: `Bearer ${acct.token}` }
  baselines.balance = await measureBaseline()
  const balance = await load({ url: `http://127.0.0.1:${sb.port}/balance`, headers: auth })
  baselines.cashOut = await measureBaseline()
  const cashOut = await load({ url: `http://127.0.0.1:${sb.port}/api/pix/cash-out`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })

  // With a webhook receiver on 127.0.0.1: every delivery must arrive.
  const rx = await receiver()
  const acct2 = await benchAccount(sb.port)
  await api(sb.port, 'POST', '/__sandbox/webhooks', { accountId: acct2.id, eventType: 'cash_out', url: `http://127.0.0.1:${rx.port}/hook` })
  const auth2 = { authorization: `Bearer ${acct2.token}` }
  baselines.withHooks = await measureBaseline()
  const withHooks = await load({ url: `http://127.0.0.1:${sb.port}/api/pix/cash-out`, method: 'POST', headers: { ...auth2, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })
  // One cash_out event per accepted cash-out, each delivered to the one registered URL.
  const expected = withHooks.ok
  const t0 = Date.now()
  while (rx.count() < expected && Date.now() - t0 < 60_000) await sleep(100)
  const delivered = rx.count()
  rx.server.close()

  await stop(sb)

  const journal = await journalBodies(sandboxArgs)

  // 100k earlier transactions in memory, made the way a user makes them: 100k cash-outs through the
  // API on a fresh process, all settled, before memory and the next load are measured.
  const big = await start(sandboxArgs, { SANDBOX_SETTLEMENT_DELAY_MS: '10' })
  const bigAcct = await benchAccount(big.port)
  const bigAuth = { authorization: `Bearer ${bigAcct.token}` }
  const filled = await autocannon({ url: `http://127.0.0.1:${big.port}/api/pix/cash-out`, method: 'POST', headers: { ...bigAuth, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true, connections: 10, amount: 100_000 })
  while ((await api(big.port, 'GET', '/__sandbox/clock')).pendingJobs > 0) await sleep(100)
  const rssBig = rssMb(big.proc.pid!)
  const cashOutBig = await load({ url: `http://127.0.0.1:${big.port}/api/pix/cash-out`, method: 'POST', headers: { ...bigAuth, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })
  const template = await api(big.port, 'GET', '/__sandbox/snapshot')
  await stop(big)

  // Persisted with --data at 1k, 10k, 100k earlier transactions.
  const persisted: Record<string, Load> = {}
  const dir = join(tmpdir(), `pix-bench-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  for (const n of [1_000, 10_000, 100_000]) {
    const state = structuredClone(template)
    const keep = Object.entries(state.transactions as Record<string, any>).slice(0, n)
    state.transactions = Object.fromEntries(keep)
    const file = join(dir, `state-${n}.json`)
    writeFileSync(file, JSON.stringify(state))
    const p = await start([...sandboxArgs, '--data', file], { SANDBOX_SETTLEMENT_DELAY_MS: '10' })
    const a = await benchAccount(p.port)
    baselines[`data${n}`] = await measureBaseline()
    persisted[String(n)] = await load({ url: `http://127.0.0.1:${p.port}/api/pix/cash-out`, method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true })
    await stop(p)
  }
  rmSync(dir, { recursive: true, force: true })
  await stop(base)

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const pct = (x: number, y: number) => `${Math.round((x / y) * 100)}%`
  const rps = Object.values(baselines).map(b => Math.round(b.rps))
  const vs = (b: Load) => `against ${Math.round(b.rps)}`
  const rows: Array<[string, string, string, string]> = [
    ['baseline POST cash-out (bare Fastify + TypeBox), before each figure', `${Math.min(...rps)} to ${Math.max(...rps)} req/s, p99 ${Math.max(...Object.values(baselines).map(b => b.p99))} ms`, '100%', ''],
    ['GET /balance with a token', `${Math.round(balance.rps)} req/s (${vs(baselines.balance)})`, pct(balance.rps, baselines.balance.rps), '>= 70%'],
    ['POST /api/pix/cash-out, settling as it goes', `${Math.round(cashOut.rps)} req/s (${vs(baselines.cashOut)}), p99 ${cashOut.p99} ms`, pct(cashOut.rps, baselines.cashOut.rps), '>= 50%, p99 <= 10 ms'],
    journalRow(journal),
    ['the same with a webhook receiver on 127.0.0.1', `${Math.round(withHooks.rps)} req/s (${vs(baselines.withHooks)}), ${delivered}/${expected} delivered`, pct(withHooks.rps, baselines.withHooks.rps), '>= 35%, all delivered'],
    ['start to healthy (process, median of 3)', `${Math.round(median(sbStarts))} ms (bare Fastify ${Math.round(median(baseStarts))} ms)`, `${(median(sbStarts) / median(baseStarts)).toFixed(1)}x`, '<= 1000 ms'],
    ['cash-out with 100k earlier transactions in memory', `${Math.round(cashOutBig.rps)} req/s, p99 ${cashOutBig.p99} ms`, `${pct(cashOutBig.rps, cashOut.rps)} of empty`, '>= 90% of empty'],
    ...Object.entries(persisted).map(([n, r]) => [`cash-out with --data, ${Number(n).toLocaleString('en')} earlier transactions`, `${Math.round(r.rps)} req/s (${vs(baselines[`data${n}`])}), p99 ${r.p99} ms`, pct(r.rps, baselines[`data${n}`].rps), n === '10000' ? 'p99 <= 100 ms' : 'reported'] as [string, string, string, string]),
    ['resident memory idle / after 100k transactions', `${Math.round(idleRss)} MB / ${Math.round(rssBig)} MB (${filled['2xx']} cash-outs made)`, '', '<= 300 MB after 100k'],
  ]
  Object.assign(results, { baselines, balance, cashOut, journal, withHooks: { ...withHooks, delivered, expected }, startMs: { sandbox: sbStarts, bareFastify: baseStarts }, cashOutBig, persisted, rssMb: { idle: idleRss, after100k: rssBig } })
  const table = ['| Figure | Measured | Ratio | Target |', '|---|---|---|---|', ...rows.map(r => `| ${r.join(' | ')} |`)].join('\n')
  console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ${DURATION} s per figure after ${WARMUP} s warm-up, 10 connections\n`)
  console.log(table)
  mkdirSync(join(root, 'bench/results'), { recursive: true })
  writeFileSync(join(root, 'bench/results/latest.json'), JSON.stringify({ ...results, table }, null, 2))
}

main().catch(err => { console.error(err); process.exit(1) })
