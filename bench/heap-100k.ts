/**
 * Resident memory after 100,000 settled cash-outs, and where it is:
 *   node --import tsx bench/heap-100k.ts [DIR ...] [--rounds N] [--count N] [--snapshot] [--keep FILE]
 *     [--wait S] [--logging info|silent] [-- sandbox flags] [-- --node=NODE_FLAG]
 * For each checkout DIR (its `dist/` built; default this one) a fresh compiled sandbox
 * (`node dist/server/main.js`, SANDBOX_SETTLEMENT_DELAY_MS=10, the default journal) gets the bench's
 * account and N cash-outs through autocannon (10 connections), and once all have settled the bench
 * reads its VmRSS and the V8 heap (spaces: size and used), then after a full collection again. With
 * `--snapshot` it also writes a heap snapshot and prints where the live bytes are (bench/heap-analysis.ts).
 * Several DIRs are measured in turns, `--rounds` times, so that two builds are compared alike.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { readHeap, report } from './heap-analysis.js'

const dashes = process.argv.indexOf('--')
const argv = process.argv.slice(2, dashes === -1 ? undefined : dashes)
/** After `--`: flags for the sandbox (`-- --journal-size 0`), or node's own before `dist/` with `--node`. */
const extra = dashes === -1 ? [] : process.argv.slice(dashes + 1)
const nodeFlags = extra.filter(f => f.startsWith('--node=')).map(f => f.slice('--node='.length))
const sandboxFlags = extra.filter(f => !f.startsWith('--node='))
/** The options that take a value (the next word is theirs, not a DIR). */
const VALUED = new Set(['--count', '--rounds', '--keep', '--logging', '--wait'])
const flag = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i === -1 ? undefined : argv[i + 1] }
const COUNT = Number(flag('count') ?? 100_000)
const ROUNDS = Number(flag('rounds') ?? 1)
const SNAPSHOT = argv.includes('--snapshot')
/** Where to keep the snapshot (it is deleted otherwise). */
const KEEP = flag('keep')
const LOGGING = flag('logging') ?? 'info'
/** Seconds to stay idle after the last settlement before reading the figures again (V8 shrinks its heap when idle). */
const WAIT = Number(flag('wait') ?? 0)
const dirs = argv.filter((a, i) => !a.startsWith('--') && !VALUED.has(argv[i - 1])).map(d => resolve(d))
if (dirs.length === 0) dirs.push(resolve(new URL('..', import.meta.url).pathname))
const probe = new URL('./heap-probe.mjs', import.meta.url).pathname
let port = 19900 + Math.floor(Math.random() * 90)

/** CPU time of a process so far, all its threads, in ms. */
const cpuMs = (pid: number): number => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10 }
const mib = (b: number): number => Math.round(b / 2 ** 20 * 10) / 10
const rssMb = (pid: number): number => mib(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024)

let asked = 0
function ask (proc: ChildProcess, msg: Record<string, unknown>): Promise<any> {
  const id = ++asked
  return new Promise(resolve => {
    const on = (m: any): void => { if (m?.id === id) { proc.off('message', on); resolve(m) } }
    proc.on('message', on)
    proc.send({ ...msg, id })
  })
}

function heapLine (m: any): string {
  const spaces = m.spaces.filter((s: any) => s.space_size > 0).map((s: any) => `${s.space_name.replace('_space', '')} ${mib(s.space_size)}/${mib(s.space_used_size)}`).join(', ')
  return `heap ${mib(m.heap.total_heap_size)} MB (used ${mib(m.heap.used_heap_size)}); external ${mib(m.memory.external)}, array buffers ${mib(m.memory.arrayBuffers)}; spaces size/used MB: ${spaces}`
}

async function measure (dir: string): Promise<Record<string, number>> {
  const p = port++
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(p), SANDBOX_SETTLEMENT_DELAY_MS: '10' }
  if (LOGGING === 'silent') env.LOG_LEVEL = 'silent'
  else delete env.LOG_LEVEL
  const proc = spawn(process.execPath, ['--expose-gc', ...nodeFlags, '--import', probe, join(dir, 'dist/server/main.js'), '--host', '127.0.0.1', ...sandboxFlags], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  for (;;) { try { if ((await fetch(`http://127.0.0.1:${p}/__sandbox/health`)).ok) break } catch {} await sleep(20) }
  const idle = rssMb(proc.pid!)
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> => (await fetch(`http://127.0.0.1:${p}${path}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })).json()
  const a = await call('POST', '/__sandbox/accounts', { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } })
  const tok = await call('POST', '/api/auth/token', { clientId: a.clientId, clientSecret: a.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(a.certificate) })
  const cpu0 = cpuMs(proc.pid!)
  const t0 = performance.now()
  const r = await autocannon({
    url: `http://127.0.0.1:${p}/api/pix/cash-out`,
    method: 'POST',
    connections: 10,
    amount: COUNT,
    idReplacement: true,
    headers: { authorization: `Bearer ${tok.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ value: 1.23, externalId: 'bench-[<id>]', description: 'benchmark', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }),
  })
  if (r['2xx'] !== COUNT) throw new Error(`${r['2xx']} of ${COUNT} cash-outs accepted`)
  while ((await call('GET', '/__sandbox/clock')).pendingJobs > 0) await sleep(100)
  const cpuUs = (cpuMs(proc.pid!) - cpu0) * 1000 / COUNT
  const seconds = (performance.now() - t0) / 1000
  const rss = rssMb(proc.pid!)
  const before = await ask(proc, { type: 'stats' })
  let rssIdle = rss
  if (WAIT > 0) {
    await sleep(WAIT * 1000)
    rssIdle = rssMb(proc.pid!)
    console.log(`  ${WAIT} s later: RSS ${rssIdle} MB (${heapLine(await ask(proc, { type: 'stats' }))})`)
  }
  const after = await ask(proc, { type: 'gc' })
  await sleep(200)
  const rssGc = rssMb(proc.pid!)
  console.log(`${dir}: RSS idle ${idle} MB; after ${COUNT} settled cash-outs ${rss} MB (filled in ${seconds.toFixed(0)} s, ${cpuUs.toFixed(0)} µs of CPU per cash-out; ${heapLine(before)})`)
  console.log(`  after a full collection: RSS ${rssGc} MB (${heapLine(after)}); live heap ${((after.heap.used_heap_size) / COUNT).toFixed(0)} B per cash-out`)
  if (SNAPSHOT) {
    const file = KEEP ?? join(tmpdir(), `heap-100k-${process.pid}-${p}.heapsnapshot`)
    await ask(proc, { type: 'snapshot', file })
    proc.kill()
    console.log(report(readHeap(file), COUNT))
    if (KEEP === undefined) rmSync(file, { force: true })
  } else {
    proc.kill()
  }
  return { rss, rssIdle, rssGc, cpuUs, heapTotal: mib(before.heap.total_heap_size), heapUsedGc: mib(after.heap.used_heap_size) }
}

const all: Record<string, Array<Record<string, number>>> = {}
for (let round = 0; round < ROUNDS; round++) {
  for (const dir of round % 2 === 0 ? dirs : [...dirs].reverse()) (all[dir] ??= []).push(await measure(dir))
}
if (ROUNDS > 1 || dirs.length > 1) {
  for (const [dir, xs] of Object.entries(all)) console.log(`${dir}: RSS after ${COUNT} ${xs.map(x => x.rss).join(', ')} MB (CPU per cash-out ${xs.map(x => Math.round(x.cpuUs)).join(', ')} µs); after a full collection ${xs.map(x => x.rssGc).join(', ')} MB; live heap ${xs.map(x => x.heapUsedGc).join(', ')} MB`)
}
