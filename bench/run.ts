/**
 * `npm run bench [-- --runs N] [-- --seconds S] [-- --only start,load,journal,big,data] [-- --logging info,silent]`:
 * every figure of the performance targets (bench/README.md), each against its target, from one run;
 * with `--runs N` the whole run N times and the median of each figure. The sandbox is compared with a
 * bare Fastify + TypeBox baseline measured right before each figure (these machines are noisy, so
 * ratios are what count). Writes bench/results/latest.json. Not part of `npm test`.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir, cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { startReceiver } from './receiver.js'

const root = new URL('..', import.meta.url).pathname
const argv = process.argv.slice(2)
const flag = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i === -1 ? undefined : argv[i + 1] }
const RUNS = Number(flag('runs') ?? 1)
const DURATION = Number(flag('seconds') ?? process.env.BENCH_SECONDS ?? 8)
const WARMUP = 2
// `npm run bench -- journal` (as the journal's own figure was run before): that figure alone.
const ONLY = new Set((flag('only') ?? (argv[0] === 'journal' ? 'journal' : 'start,load,journal,big,data')).split(','))
/** `info` is the default level (written to /dev/null); `silent` is logging off. */
const LOGGING = (flag('logging') ?? 'info,silent').split(',') as Logging[]
type Logging = 'info' | 'silent'
const STARTS = 5
const STORED = 100_000
let nextPort = 18100 + Math.floor(Math.random() * 500)

interface Proc { proc: ChildProcess, port: number, readyMs: number, stderr: () => string }

/**
 * A process started and polled until it answers its health path. Its stdout goes to /dev/null (where
 * the sandbox's log lines go); stderr is kept for the error of a start that fails.
 */
async function start (args: string[], env: Record<string, string | undefined> = {}, healthPath = '/__sandbox/health'): Promise<Proc> {
  const port = nextPort++
  const t0 = performance.now()
  const merged: Record<string, string | undefined> = { ...process.env, PORT: String(port), ...env }
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k]
  const proc = spawn(process.execPath, args, { cwd: root, env: merged as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  proc.stderr!.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-4000) })
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${healthPath}`)
      if (res.ok) return { proc, port, readyMs: performance.now() - t0, stderr: () => err }
    } catch {}
    if (proc.exitCode !== null) throw new Error(`${args.join(' ')} exited ${proc.exitCode}: ${err}`)
    if (performance.now() - t0 > 30_000) throw new Error(`${args.join(' ')} never became healthy: ${err}`)
    await sleep(2)
  }
}

async function stop (p: Proc): Promise<void> {
  if (p.proc.exitCode !== null) return
  const exited = new Promise(resolve => p.proc.once('exit', resolve))
  p.proc.kill('SIGTERM')
  await exited
}

function rssMb (pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

/**
 * CPU time a process has used so far, all its threads (the webhook sender's too), in ms: on a machine
 * shared with other work, the sandbox's own CPU time per answer moves far less with the neighbours'
 * load than its throughput does.
 */
function cpuMs (pid: number): number {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try { ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) } catch {} // a thread gone meanwhile
  }
  return ns / 1e6
}

interface Load { rps: number, p99: number, non2xx: number, errors: number, ok: number, cpuUsPerRequest: number }

/**
 * A warm-up, then the measured run; `ok` counts the 2xx answers of both (what later checks expect),
 * and the CPU time of `pid` over both is divided by it.
 */
async function load (opts: autocannon.Options, pid?: number): Promise<Load> {
  const before = pid === undefined ? 0 : cpuMs(pid)
  const warm = await autocannon({ ...opts, connections: 10, duration: WARMUP })
  const r = await autocannon({ ...opts, connections: 10, duration: DURATION })
  const ok = warm['2xx'] + r['2xx']
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: warm.non2xx + r.non2xx, errors: warm.errors + r.errors, ok, cpuUsPerRequest: pid === undefined ? 0 : (cpuMs(pid) - before) * 1000 / Math.max(1, ok) }
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

const cashOutLoad = (port: number, token: string): autocannon.Options => ({
  url: `http://127.0.0.1:${port}/api/pix/cash-out`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true,
})

/**
 * `startSandbox()` in a fresh process, as a test file calls it: the import of the package, the first
 * call (until it listens and answers) and a second one in the same process.
 */
const inProcessSource = `
const t0 = performance.now()
const { startSandbox } = await import(${JSON.stringify(join(root, 'dist/server/index.js'))})
const t1 = performance.now()
const first = await startSandbox()
const t2 = performance.now()
await first.close()
const t3 = performance.now()
const second = await startSandbox()
const t4 = performance.now()
await second.close()
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: t4 - t3 }))
`

function inProcessStart (): Promise<{ importMs: number, firstMs: number, secondMs: number }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', inProcessSource], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => { out += c.toString() })
  return new Promise((resolve, reject) => child.once('exit', code => code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`startSandbox() process exited ${code}`))))
}

/** Until every timed effect (settlements, webhook retries) has run. */
async function settled (port: number): Promise<void> {
  while ((await api(port, 'GET', '/__sandbox/clock')).pendingJobs > 0) await sleep(100)
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2 }

/** The sandbox's environment for a logging setting: `info` is the default (no LOG_LEVEL at all). */
const loggingEnv = (logging: Logging): Record<string, string | undefined> => ({ LOG_LEVEL: logging === 'info' ? undefined : 'silent' })

/** One run: every figure, as plain numbers (a figure named `x.y` for logging setting x). */
async function oneRun (): Promise<Record<string, number>> {
  const f: Record<string, number> = {}
  const sandboxArgs = ['dist/server/main.js', '--host', '127.0.0.1']
  // The baseline stays up and is measured again right before the figures it is compared with: over a
  // run of minutes this machine's speed drifts by a third.
  const base = await start(['bench/baseline.mjs'], {}, '/health')
  const baseline = async (name: string): Promise<number> => {
    const b = await load({ url: `http://127.0.0.1:${base.port}/api/pix/cash-out`, method: 'POST', headers: { 'content-type': 'application/json' }, body: cashOutBody, idReplacement: true }, base.proc.pid)
    f[`baseline.${name}.cpuUs`] = b.cpuUsPerRequest
    f[`baseline.${name}.rps`] = b.rps
    f[`baseline.${name}.p99`] = b.p99
    return b.rps
  }

  if (ONLY.has('start')) {
    // Start to healthy from dist/ with the default settings, logging to /dev/null.
    const sb: number[] = []
    const bare: number[] = []
    for (let i = 0; i < STARTS; i++) {
      const p = await start(['bench/baseline.mjs'], {}, '/health'); bare.push(p.readyMs); await stop(p)
      const s = await start(sandboxArgs, loggingEnv('info')); sb.push(s.readyMs); await stop(s)
    }
    f['start.sandboxMs'] = median(sb)
    f['start.bareMs'] = median(bare)
    const inProcess = []
    for (let i = 0; i < STARTS; i++) inProcess.push(await inProcessStart())
    f['inProcess.importMs'] = median(inProcess.map(r => r.importMs))
    f['inProcess.firstMs'] = median(inProcess.map(r => r.firstMs))
    f['inProcess.secondMs'] = median(inProcess.map(r => r.secondMs))
  }

  if (ONLY.has('load')) {
    // One sandbox per logging setting, both up; each figure is measured on both right after one
    // baseline measure, so the two settings are compared on the same footing.
    const sandboxes = new Map<Logging, { p: Proc, token: string, hookToken: string, accepted: () => Promise<number> }>()
    const rx = await startReceiver()
    for (const logging of LOGGING) {
      const p = await start(sandboxArgs, { ...loggingEnv(logging), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
      f[`${logging}.rssIdleMb`] = rssMb(p.proc.pid!)
      const a = await benchAccount(p.port)
      const h = await benchAccount(p.port)
      await api(p.port, 'POST', '/__sandbox/webhooks', { accountId: h.id, eventType: 'cash_out', url: `http://127.0.0.1:${rx.port}/${logging}` })
      // What one cash-out takes from the balance (value and fee): the number of cash-outs the sandbox
      // accepted is read from the balance after the load (autocannon does not count the answers still
      // in flight when it stops).
      const before = (await api(p.port, 'GET', '/balance', undefined, { authorization: `Bearer ${h.token}` })).grossBalance
      await api(p.port, 'POST', '/api/pix/cash-out', JSON.parse(cashOutBody.replace('[<id>]', 'first')), { authorization: `Bearer ${h.token}` })
      await settled(p.port)
      const each = before - (await api(p.port, 'GET', '/balance', undefined, { authorization: `Bearer ${h.token}` })).grossBalance
      sandboxes.set(logging, { p, token: a.token, hookToken: h.token, accepted: async () => Math.round((before - (await api(p.port, 'GET', '/balance', undefined, { authorization: `Bearer ${h.token}` })).grossBalance) / each) })
    }
    const b1 = await baseline('balance')
    for (const [logging, s] of sandboxes) {
      const r = await load({ url: `http://127.0.0.1:${s.p.port}/balance`, headers: { authorization: `Bearer ${s.token}` } })
      f[`${logging}.balance.ratio`] = r.rps / b1
      f[`${logging}.balance.rps`] = r.rps
      f[`${logging}.balance.failed`] = r.non2xx + r.errors
    }
    const b2 = await baseline('cashOut')
    for (const [logging, s] of sandboxes) {
      const r = await load(cashOutLoad(s.p.port, s.token), s.p.proc.pid)
      f[`${logging}.cashOut.cpuUs`] = r.cpuUsPerRequest
      f[`${logging}.cashOut.ratio`] = r.rps / b2
      f[`${logging}.cashOut.rps`] = r.rps
      f[`${logging}.cashOut.p99`] = r.p99
      f[`${logging}.cashOut.failed`] = r.non2xx + r.errors
    }
    const b3 = await baseline('withReceiver')
    for (const [logging, s] of sandboxes) {
      const r = await load(cashOutLoad(s.p.port, s.hookToken), s.p.proc.pid)
      f[`${logging}.withReceiver.cpuUs`] = r.cpuUsPerRequest
      f[`${logging}.withReceiver.ratio`] = r.rps / b3
      f[`${logging}.withReceiver.rps`] = r.rps
      f[`${logging}.withReceiver.p99`] = r.p99
      f[`${logging}.withReceiver.failed`] = r.non2xx + r.errors
      // One cash_out event per accepted cash-out, each delivered once to the one registered URL; a
      // second of quiet after the last one catches a delivery made twice.
      await settled(s.p.port)
      const expected = await s.accepted()
      const t0 = Date.now()
      let c = await rx.counts(`/${logging}`)
      while (c.distinct < expected && Date.now() - t0 < 60_000) { await sleep(200); c = await rx.counts(`/${logging}`) }
      await sleep(1000)
      c = await rx.counts(`/${logging}`)
      f[`${logging}.withReceiver.expected`] = expected
      f[`${logging}.withReceiver.missing`] = expected - c.distinct
      f[`${logging}.withReceiver.duplicates`] = c.received - c.distinct
    }
    rx.close()
    for (const s of sandboxes.values()) await stop(s.p)
  }

  if (ONLY.has('journal')) {
    // The request journal's own figure: cash-out on a sandbox whose journal keeps bodies (the default)
    // and on one with `--journal-bodies false`, both up at once and loaded in turns (with, without,
    // without, with, with, without) so that the machine's drift and the order fall on both alike.
    const on = await start(sandboxArgs, { ...loggingEnv('info'), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
    const off = await start([...sandboxArgs, '--journal-bodies', 'false'], { ...loggingEnv('info'), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
    const tokens = { on: (await benchAccount(on.port)).token, off: (await benchAccount(off.port)).token }
    const runs: Record<'on' | 'off', Load[]> = { on: [], off: [] }
    for (let round = 0; round < 3; round++) {
      for (const which of round % 2 === 0 ? ['on', 'off'] as const : ['off', 'on'] as const) {
        const p = which === 'on' ? on : off
        runs[which].push(await load(cashOutLoad(p.port, tokens[which]), p.proc.pid))
      }
    }
    await stop(on)
    await stop(off)
    const mean = (xs: Load[], pick: (x: Load) => number): number => xs.reduce((a, x) => a + pick(x), 0) / xs.length
    f['journal.ratio'] = mean(runs.on, x => x.rps) / mean(runs.off, x => x.rps)
    f['journal.cpuRatio'] = mean(runs.on, x => x.cpuUsPerRequest) / mean(runs.off, x => x.cpuUsPerRequest)
    f['journal.on.cpuUs'] = mean(runs.on, x => x.cpuUsPerRequest)
    f['journal.off.cpuUs'] = mean(runs.off, x => x.cpuUsPerRequest)
  }

  let template: any = null
  if (ONLY.has('big') || ONLY.has('data')) {
    for (const logging of LOGGING) {
      // 100k earlier transactions, made the way a user makes them: 100k cash-outs through the API on a
      // fresh process, all settled, before memory and the next load are measured.
      const big = await start(sandboxArgs, { ...loggingEnv(logging), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
      const a = await benchAccount(big.port)
      const filled = await autocannon({ ...cashOutLoad(big.port, a.token), connections: 10, amount: STORED })
      if (filled['2xx'] !== STORED) throw new Error(`filling: ${filled['2xx']} of ${STORED} cash-outs accepted`)
      await settled(big.port)
      f[`${logging}.rss100kMb`] = rssMb(big.proc.pid!)
      if (ONLY.has('big')) {
        // Against an empty process measured right after the same baseline measure: the drift of the
        // machine between the two cancels out.
        const empty = await start(sandboxArgs, { ...loggingEnv(logging), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
        const e = await benchAccount(empty.port)
        const b = await baseline(`stored.${logging}`)
        const emptyLoad = await load(cashOutLoad(empty.port, e.token))
        await stop(empty)
        const r = await load(cashOutLoad(big.port, a.token))
        f[`${logging}.stored.ratioToEmpty`] = r.rps / emptyLoad.rps
        f[`${logging}.stored.ratio`] = r.rps / b
        f[`${logging}.stored.p99`] = r.p99
      }
      template ??= await api(big.port, 'GET', '/__sandbox/snapshot')
      await stop(big)
    }
  }

  if (ONLY.has('data')) {
    // --data: that state (100k transactions) written to a file that a new process starts on.
    const dir = join(tmpdir(), `pix-bench-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    for (const logging of LOGGING) {
      const file = join(dir, `state-${logging}.json`)
      writeFileSync(file, JSON.stringify(template))
      const p = await start([...sandboxArgs, '--data', file], { ...loggingEnv(logging), SANDBOX_SETTLEMENT_DELAY_MS: '10' })
      const a = await benchAccount(p.port)
      const b = await baseline(`data.${logging}`)
      const r = await load(cashOutLoad(p.port, a.token))
      f[`${logging}.data.ratio`] = r.rps / b
      f[`${logging}.data.rps`] = r.rps
      f[`${logging}.data.p99`] = r.p99
      f[`${logging}.data.failed`] = r.non2xx + r.errors
      await stop(p)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  await stop(base)
  return f
}

/** Counts that must be zero in every run: the worst run is reported, not the median. */
const worst = (key: string): boolean => /\.(missing|duplicates|failed)$/.test(key)

function combine (runs: Array<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const key of new Set(runs.flatMap(r => Object.keys(r)))) {
    const xs = runs.map(r => r[key]).filter(x => x !== undefined)
    out[key] = worst(key) ? Math.max(...xs) : median(xs)
  }
  return out
}

interface Row { figure: string, settings: string, measured: string, target: string, met: boolean | null }

function rows (f: Record<string, number>): Row[] {
  const out: Row[] = []
  const pct = (x: number): string => `${Math.round(x * 100)}%`
  const ms = (x: number): string => `${Math.round(x)} ms`
  const has = (k: string): boolean => f[k] !== undefined
  const label: Record<Logging, string> = { info: 'logging info to /dev/null (default)', silent: 'logging off' }
  if (has('start.sandboxMs')) {
    out.push({ figure: 'start to healthy from dist/ (median of 5)', settings: label.info, measured: `${ms(f['start.sandboxMs'])} (bare Fastify ${ms(f['start.bareMs'])})`, target: '<= 500 ms', met: f['start.sandboxMs'] <= 500 })
    out.push({ figure: 'startSandbox() in process, first call (median of 5)', settings: 'its default (logging off)', measured: `${ms(f['inProcess.firstMs'])} (import ${ms(f['inProcess.importMs'])}; a second call ${ms(f['inProcess.secondMs'])})`, target: '<= 200 ms', met: f['inProcess.firstMs'] <= 200 })
  }
  for (const logging of LOGGING) {
    const k = (x: string): string => `${logging}.${x}`
    const s = label[logging]
    if (has(k('cashOut.ratio'))) {
      out.push({ figure: 'POST /api/pix/cash-out, settling as it goes', settings: s, measured: `${pct(f[k('cashOut.ratio')])} (${Math.round(f[k('cashOut.rps')])} req/s, ${Math.round(f[k('cashOut.cpuUs')])} µs of CPU each), p99 ${f[k('cashOut.p99')]} ms${f[k('cashOut.failed')] ? `, ${f[k('cashOut.failed')]} failed` : ''}`, target: '>= 60%, p99 <= 5 ms', met: f[k('cashOut.ratio')] >= 0.6 && f[k('cashOut.p99')] <= 5 && !f[k('cashOut.failed')] })
      out.push({ figure: 'the same with a webhook receiver in its own process', settings: s, measured: `${pct(f[k('withReceiver.ratio')])} (${Math.round(f[k('withReceiver.rps')])} req/s, ${Math.round(f[k('withReceiver.cpuUs')])} µs of CPU each), p99 ${f[k('withReceiver.p99')]} ms; of ${Math.round(f[k('withReceiver.expected')])} webhooks ${f[k('withReceiver.missing')]} missing, ${f[k('withReceiver.duplicates')]} twice`, target: '>= 33%, each delivered once', met: f[k('withReceiver.ratio')] >= 0.33 && f[k('withReceiver.missing')] === 0 && f[k('withReceiver.duplicates')] === 0 && !f[k('withReceiver.failed')] })
      out.push({ figure: 'GET /balance with a token', settings: s, measured: `${pct(f[k('balance.ratio')])} (${Math.round(f[k('balance.rps')])} req/s)`, target: '>= 100%', met: f[k('balance.ratio')] >= 1 && !f[k('balance.failed')] })
      out.push({ figure: 'resident memory idle', settings: s, measured: `${Math.round(f[k('rssIdleMb')])} MB`, target: '<= 100 MB', met: f[k('rssIdleMb')] <= 100 })
    }
    if (has(k('rss100kMb'))) out.push({ figure: 'resident memory after 100k settled cash-outs', settings: s, measured: `${Math.round(f[k('rss100kMb')])} MB`, target: '<= 200 MB', met: f[k('rss100kMb')] <= 200 })
    if (has(k('stored.ratioToEmpty'))) out.push({ figure: 'cash-out with 100k stored, against empty', settings: s, measured: `${pct(f[k('stored.ratioToEmpty')])} (${pct(f[k('stored.ratio')])} of the baseline), p99 ${f[k('stored.p99')]} ms`, target: '>= 95%', met: f[k('stored.ratioToEmpty')] >= 0.95 })
    if (has(k('data.ratio'))) out.push({ figure: 'cash-out with --data, 100k stored', settings: s, measured: `${pct(f[k('data.ratio')])} (${Math.round(f[k('data.rps')])} req/s), p99 ${f[k('data.p99')]} ms${f[k('data.failed')] ? `, ${f[k('data.failed')]} failed` : ''}`, target: '>= 40%, p99 <= 20 ms', met: f[k('data.ratio')] >= 0.4 && f[k('data.p99')] <= 20 && !f[k('data.failed')] })
  }
  if (has('journal.ratio')) out.push({ figure: 'cash-out, journal keeping bodies against `--journal-bodies false` (mean of 3 each)', settings: label.info, measured: `${pct(f['journal.ratio'])} of the throughput; CPU per request ${pct(f['journal.cpuRatio'])} (${Math.round(f['journal.on.cpuUs'])} / ${Math.round(f['journal.off.cpuUs'])} µs)`, target: '>= 90%', met: f['journal.ratio'] >= 0.9 })
  const baseRps = Object.keys(f).filter(x => /^baseline\..*\.rps$/.test(x)).map(x => f[x])
  if (baseRps.length) out.unshift({ figure: 'baseline: bare Fastify + TypeBox, POST cash-out, before each figure', settings: '', measured: `${Math.round(Math.min(...baseRps))} to ${Math.round(Math.max(...baseRps))} req/s, ${Math.round(median(Object.keys(f).filter(x => /^baseline\..*\.cpuUs$/.test(x)).map(x => f[x])))} µs of CPU each`, target: '100%', met: null })
  return out
}

function table (rs: Row[]): string {
  return ['| Figure | Settings | Measured | Target | Met |', '|---|---|---|---|---|',
    ...rs.map(r => `| ${r.figure} | ${r.settings} | ${r.measured} | ${r.target} | ${r.met === null ? '' : r.met ? 'yes' : '**no**'} |`)].join('\n')
}

async function main (): Promise<void> {
  const machine = { cpus: cpus().length, model: cpus()[0]?.model, memGb: Math.round(totalmem() / 2 ** 30), node: process.version }
  const runs: Array<Record<string, number>> = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = Date.now()
    runs.push(await oneRun())
    if (RUNS > 1) console.log(`\nRun ${i + 1} of ${RUNS} (${Math.round((Date.now() - t0) / 1000)} s)\n\n${table(rows(runs[i]))}`)
  }
  const figures = combine(runs)
  const out = table(rows(figures))
  console.log(`\nMachine: ${machine.cpus} cores (${machine.model}), ${machine.memGb} GB, Node ${machine.node}; ${DURATION} s per figure after ${WARMUP} s of warm-up, 10 connections; ${RUNS === 1 ? 'one run' : `median of ${RUNS} runs (counts of failures: the worst run)`}\n`)
  console.log(out)
  mkdirSync(join(root, 'bench/results'), { recursive: true })
  writeFileSync(join(root, 'bench/results/latest.json'), JSON.stringify({ machine, at: new Date().toISOString(), durationSeconds: DURATION, runs, figures, table: out }, null, 2))
}

main().catch(err => { console.error(err); process.exit(1) })
