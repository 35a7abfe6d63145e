/**
 * `npm run bench:profile [-- --receiver] [-- --data] [-- --seconds N] [-- --log-level L] [-- --path /balance]`:
 * where a request's CPU goes. Starts the compiled sandbox under `node --cpu-prof` with its default
 * settings (logging at info to /dev/null unless `--log-level` says otherwise), loads POST
 * /api/pix/cash-out (or GET `--path`) with autocannon (optionally with a webhook receiver in its own
 * process; with `--data`, state in a file of its own), stops it, and prints the costliest frames by self time, then our own functions by
 * inclusive time. It measures nothing by itself (the profiler slows everything down).
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { startReceiver } from './receiver.js'

const args = process.argv.slice(2)
const withReceiver = args.includes('--receiver')
const seconds = Number(args[args.indexOf('--seconds') + 1]) || 8
const top = Number(args[args.indexOf('--top') + 1]) || 30
const logLevel = args.includes('--log-level') ? args[args.indexOf('--log-level') + 1] : undefined
const getPath = args.includes('--path') ? args[args.indexOf('--path') + 1] : undefined
const withData = args.includes('--data')
const root = new URL('..', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'pix-profile-'))
const port = 18700 + Math.floor(Math.random() * 200)

const proc = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, 'dist/server/main.js', '--host', '127.0.0.1', ...(withData ? ['--data', join(dir, 'state.json')] : [])], {
  cwd: root, env: { ...process.env, PORT: String(port), ...(logLevel ? { LOG_LEVEL: logLevel } : {}), SANDBOX_SETTLEMENT_DELAY_MS: '10' }, stdio: ['ignore', 'ignore', 'inherit'],
})
for (let i = 0; ; i++) {
  try { if ((await fetch(`http://127.0.0.1:${port}/__sandbox/health`)).ok) break } catch {}
  if (i > 2000) throw new Error('the sandbox never became healthy')
  await sleep(10)
}
const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> =>
  (await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })).json()
const account = await api('POST', '/__sandbox/accounts', { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } })
const token = (await api('POST', '/api/auth/token', { clientId: account.clientId, clientSecret: account.clientSecret }, { 'x-ssl-client-cert': encodeURIComponent(account.certificate) })).access_token

const receiver = withReceiver ? await startReceiver() : null
if (receiver) await api('POST', '/__sandbox/webhooks', { accountId: account.accountId, eventType: 'cash_out', url: `http://127.0.0.1:${receiver.port}/hook` })
const body = JSON.stringify({ value: 1.23, externalId: 'profile-[<id>]', description: 'profile', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } })
// Both clocks are the machine's monotonic one (V8's profile timestamps and process.hrtime, in µs):
// only the samples taken while the load ran are counted, not the start.
const loadStart = Number(process.hrtime.bigint() / 1000n)
const load = await autocannon(getPath
  ? { url: `http://127.0.0.1:${port}${getPath}`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: seconds }
  : { url: `http://127.0.0.1:${port}/api/pix/cash-out`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, idReplacement: true, connections: 10, duration: seconds })
const loadEnd = Number(process.hrtime.bigint() / 1000n)
const received = receiver ? (await receiver.counts('/hook')).received : 0
proc.kill('SIGTERM')
await new Promise(resolve => proc.once('exit', resolve))
receiver?.close()
console.log(`${Math.round(load.requests.average)} ${getPath ?? 'cash-outs'}/s under the profiler, p99 ${load.latency.p99} ms${receiver ? `, ${received} webhooks received` : ''}`)

interface Node { id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }
// The main thread's profile is the first one written (a sender thread writes its own).
const file = readdirSync(dir).filter(n => n.endsWith('.cpuprofile')).sort()[0]
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[], samples: number[], timeDeltas: number[], startTime: number }
rmSync(dir, { recursive: true, force: true })
const byId = new Map(profile.nodes.map(n => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const selfTime = new Map<string, number>()
const ours = new Map<string, number>()
let total = 0
let at = profile.startTime
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0
  at += us
  if (at < loadStart || at > loadEnd) return
  total += us
  const frame = byId.get(id)!.callFrame
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*\/(node_modules\/)?/, '')}:${frame.lineNumber + 1}`
  selfTime.set(key, (selfTime.get(key) ?? 0) + us)
  const seen = new Set<string>()
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur)!.callFrame
    // dist/ is a bundle: a function is named by its name and line in it.
    const m = /\/dist\/(server\/.*?\.js)/.exec(f.url)
    const name = m ? `${f.functionName || '(anonymous)'} ${m[1]}:${f.lineNumber + 1}` : null
    if (name && !seen.has(name)) {
      seen.add(name)
      ours.set(name, (ours.get(name) ?? 0) + us)
    }
  }
})
const print = (title: string, rows: Map<string, number>): void => {
  console.log(`\n${title}`)
  for (const [k, v] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(v / total * 100).toFixed(1).padStart(5)}%  ${k}`)
}
print('Self time', selfTime)
print('Our functions, inclusive', ours)
