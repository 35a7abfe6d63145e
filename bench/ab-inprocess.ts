/**
 * CPU per request of two builds without HTTP: `node --import tsx bench/ab-inprocess.ts DIR_A DIR_B
 * [requests] [rounds] [--path /balance]`. Each turn is a fresh process that loads a build's
 * `dist/server/app.js`, creates an account, warms up with 3,000 requests and then times `requests`
 * cash-outs (or GETs of `--path`) through `app.inject`, 10 in flight; the builds take turns, and each
 * round's B/A ratio is printed with the medians. Without sockets, the sandbox's own work is a larger
 * share of what is measured than in bench/ab-cpu.ts, so a change to it shows more clearly.
 */
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const args = process.argv.slice(2)
const pathAt = args.indexOf('--path')
const getPath = pathAt === -1 ? undefined : args[pathAt + 1]
const positional = pathAt === -1 ? args : args.filter((_a, i) => i !== pathAt && i !== pathAt + 1)

if (positional[0] === '--turn') {
  console.log((await turn(positional[1], Number(positional[2]))).toFixed(1))
  process.exit(0)
}

/** One build's CPU time (user + system, µs) per request, in this process. */
async function turn (dir: string, requests: number): Promise<number> {
  const { buildApp } = await import(pathToFileURL(join(dir, 'dist/server/app.js')).href) as typeof import('../server/app.js')
  const app = await buildApp({ config: { seed: 'bench', settlementDelayMs: 10, logLevel: 'silent' } })
  const account = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } } })).json()
  const token = (await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(account.certificate) }, payload: { clientId: account.clientId, clientSecret: account.clientSecret } })).json().access_token
  const body = { value: 1.23, description: 'ab', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }
  let n = 0
  const one = async (): Promise<void> => {
    const r = getPath
      ? await app.inject({ method: 'GET', url: getPath, headers: { authorization: `Bearer ${token}` } })
      : await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ ...body, externalId: `ab-${n++}` }) })
    if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`)
  }
  const load = async (count: number): Promise<void> => {
    let left = count
    await Promise.all(Array.from({ length: 10 }, async () => { while (left-- > 0) await one() }))
    // The settlements due by then run inside the measured time too.
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  await load(3000)
  const before = process.cpuUsage()
  await load(requests)
  const used = process.cpuUsage(before)
  await app.close()
  return (used.user + used.system) / requests
}

const [dirA, dirB] = positional.slice(0, 2).map(d => resolve(d))
const requests = Number(positional[2] ?? 8000)
const rounds = Number(positional[3] ?? 8)
const measure = (dir: string): number => {
  const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--turn', dir, String(requests), ...(getPath ? ['--path', getPath] : [])], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(r.stderr)
  return Number(r.stdout.trim())
}
const a: number[] = []
const b: number[] = []
for (let i = 0; i < rounds; i++) {
  if (i % 2 === 0) { a.push(measure(dirA)); b.push(measure(dirB)) } else { b.push(measure(dirB)); a.push(measure(dirA)) }
}
const median = (xs: number[]): number => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2 }
const ratios = b.map((x, i) => x / a[i])
console.log(`A ${dirA}: ${a.map(Math.round).join(', ')} µs of CPU per ${getPath ?? 'cash-out'} (median ${Math.round(median(a))})`)
console.log(`B ${dirB}: ${b.map(Math.round).join(', ')} µs of CPU per ${getPath ?? 'cash-out'} (median ${Math.round(median(b))})`)
console.log(`B / A: ${Math.round(median(b) / median(a) * 100)}% (median of the rounds' ratios ${Math.round(median(ratios) * 100)}%, B lower in ${ratios.filter(r => r < 1).length} of ${rounds})`)
