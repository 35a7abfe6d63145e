/**
 * CPU per cash-out of two builds, loaded in turns with the same fixed number of requests:
 * `node --import tsx bench/ab-cpu.ts DIR_A DIR_B [requests] [rounds] [--data] [--seconds S]`. On a
 * shared machine the CPU time a process spends per answer moves far less with the neighbours' load
 * than its throughput, which is shown beside it (`--seconds S` loads each for S seconds instead of a
 * number of requests, for a throughput finer than autocannon's one-second tick). With `--data` each sandbox keeps its state in a fresh file
 * (`--data`), where throughput is bound by the wait for each write rather than by CPU.
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const withData = process.argv.includes('--data')
// autocannon ends an `amount` run on its one-second tick, so a throughput wants a fixed duration.
const secondsAt = process.argv.indexOf('--seconds')
const SECONDS = secondsAt > 0 ? Number(process.argv[secondsAt + 1]) : 0
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--seconds')
const [dirA, dirB] = positional.slice(0, 2).map(d => resolve(d))
const N = Number(positional[2] ?? 20000)
const ROUNDS = Number(positional[3] ?? 3)
let port = 19500 + Math.floor(Math.random() * 300)

const cpuMs = (pid: number): number => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10 }

async function measure (dir: string): Promise<{ us: number, rps: number }> {
  const p = port++
  const stateDir = withData ? mkdtempSync(join(tmpdir(), 'pix-ab-')) : null
  const proc = spawn(process.execPath, [join(dir, 'dist/server/main.js'), '--host', '127.0.0.1', ...(stateDir ? ['--data', join(stateDir, 'state.json')] : [])], { env: { ...process.env, PORT: String(p), LOG_LEVEL: 'silent', SANDBOX_SETTLEMENT_DELAY_MS: '10' }, stdio: 'ignore' })
  for (;;) { try { if ((await fetch(`http://127.0.0.1:${p}/__sandbox/health`)).ok) break } catch {} await sleep(20) }
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> => (await fetch(`http://127.0.0.1:${p}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).json()
  const a = await post('/__sandbox/accounts', { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } })
  const tok = await post('/api/auth/token', { clientId: a.clientId, clientSecret: a.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(a.certificate) })
  const opts = { url: `http://127.0.0.1:${p}/api/pix/cash-out`, method: 'POST' as const, connections: 10, headers: { authorization: `Bearer ${tok.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ value: 1.23, externalId: 'ab-[<id>]', description: 'ab', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }), idReplacement: true }
  await autocannon({ ...opts, amount: 2000 })
  const before = cpuMs(proc.pid!)
  const r = await autocannon(SECONDS > 0 ? { ...opts, duration: SECONDS } : { ...opts, amount: N })
  await sleep(300)
  const us = (cpuMs(proc.pid!) - before) * 1000 / r['2xx']
  proc.kill()
  await new Promise(resolve => proc.once('exit', resolve))
  if (stateDir) rmSync(stateDir, { recursive: true, force: true })
  return { us, rps: r['2xx'] / r.duration }
}

const out: Record<string, Array<{ us: number, rps: number }>> = { A: [], B: [] }
for (let i = 0; i < ROUNDS; i++) {
  for (const which of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) out[which].push(await measure(which === 'A' ? dirA : dirB))
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
for (const [name, dir] of [['A', dirA], ['B', dirB]] as const) {
  const us = out[name].map(m => m.us)
  const rps = out[name].map(m => m.rps)
  console.log(`${name} ${dir}: ${us.map(Math.round).join(', ')} µs of CPU per cash-out (median ${Math.round(med(us))}); ${rps.map(Math.round).join(', ')} req/s (median ${Math.round(med(rps))})`)
}
const ratio = (f: (m: { us: number, rps: number }) => number): number => Math.round(med(out.B.map(f)) / med(out.A.map(f)) * 100)
console.log(`B / A: CPU per cash-out ${ratio(m => m.us)}%, req/s ${ratio(m => m.rps)}%`)
