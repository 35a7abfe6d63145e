/**
 * CPU per cash-out of two builds, loaded in turns with the same fixed number of requests:
 * `node --import tsx bench/ab-cpu.ts DIR_A DIR_B [requests] [rounds]`. On a shared machine the CPU
 * time a process spends per answer moves far less with the neighbours' load than its throughput.
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const [dirA, dirB] = process.argv.slice(2, 4).map(d => resolve(d))
const N = Number(process.argv[4] ?? 20000)
const ROUNDS = Number(process.argv[5] ?? 3)
let port = 19500 + Math.floor(Math.random() * 300)

const cpuMs = (pid: number): number => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10 }

async function measure (dir: string): Promise<number> {
  const p = port++
  const proc = spawn(process.execPath, [join(dir, 'dist/server/main.js'), '--host', '127.0.0.1'], { env: { ...process.env, PORT: String(p), LOG_LEVEL: 'silent', SANDBOX_SETTLEMENT_DELAY_MS: '10' }, stdio: 'ignore' })
  for (;;) { try { if ((await fetch(`http://127.0.0.1:${p}/__sandbox/health`)).ok) break } catch {} await sleep(20) }
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> => (await fetch(`http://127.0.0.1:${p}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).json()
  const a = await post('/__sandbox/accounts', { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } })
  const tok = await post('/api/auth/token', { clientId: a.clientId, clientSecret: a.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(a.certificate) })
  const opts = { url: `http://127.0.0.1:${p}/api/pix/cash-out`, method: 'POST' as const, connections: 10, headers: { authorization: `Bearer ${tok.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ value: 1.23, externalId: 'ab-[<id>]', description: 'ab', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }), idReplacement: true }
  await autocannon({ ...opts, amount: 2000 })
  const before = cpuMs(proc.pid!)
  const r = await autocannon({ ...opts, amount: N })
  await sleep(300)
  const us = (cpuMs(proc.pid!) - before) * 1000 / r['2xx']
  proc.kill()
  return us
}

const out: Record<string, number[]> = { A: [], B: [] }
for (let i = 0; i < ROUNDS; i++) {
  for (const which of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) out[which].push(await measure(which === 'A' ? dirA : dirB))
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`A ${dirA}: ${out.A.map(Math.round).join(', ')} µs of CPU per cash-out (median ${Math.round(med(out.A))})`)
console.log(`B ${dirB}: ${out.B.map(Math.round).join(', ')} µs of CPU per cash-out (median ${Math.round(med(out.B))})`)
console.log(`B / A: ${Math.round(med(out.B) / med(out.A) * 100)}%`)
