/**
 * The path of two operations through the code: `node --import ./bench/code-path-register.mjs
 * bench/code-path.ts [--json]` (`npm run code-path`). The sources are compiled so that every function
 * of server/ and scenarios/ reports its entry (bench/code-path-hooks.mjs); at each entry the stack
 * says which function called it. Two operations run in one sandbox (memory store, frozen clock), each
 * traced from its request until its webhook's delivery has been attempted and recorded:
 * - a cob paid by QR code: API Pix's `PUT /v2/cob/{txid}` and `PUT /v2/webhook/{chave}` beforehand
 *   (not traced), then `POST /__sandbox/pix/pay` of its pixCopiaECola, up to the `/pix` callback;
 * - a cash-out: `POST /api/pix/cash-out`, then `POST /__sandbox/clock/advance` past the settlement
 *   delay, up to the `cash_out` webhook (a registration made beforehand through the control plane).
 * Counted, per operation:
 * - files: the files of server/ and scenarios/ at least one of whose functions ran;
 * - calls between files: entries whose caller (the nearest frame of the project right under the
 *   function, native frames skipped) is in another file; an entry called by Fastify, a timer or the
 *   event loop has no caller and is not one;
 * - climbs back up: calls between files whose callee stands on a higher floor than its caller, a
 *   file's floor being 1 + the highest floor among the files of server/ and scenarios/ it imports
 *   (type imports too; 1 for a file that imports none): such a call goes against the imports, through
 *   something handed down (a port, a listener, a callback);
 * - entries per file: calls from another file into it.
 */
import { createServer } from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve as resolvePath } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { buildApp } from '../server/app.js'

const root = fileURLToPath(new URL('../', import.meta.url))
const json = process.argv.includes('--json')

// ---- floors ---------------------------------------------------------------------------------------

function sources (dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap(e => {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) return sources(rel)
    return e.name.endsWith('.ts') ? [rel] : []
  })
}
const files = [...sources('server'), ...sources('scenarios')]
const known = new Set(files)
const imports = new Map<string, string[]>(files.map(file => {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
  const targets = info.importedFiles.map(i => i.fileName).filter(s => s.startsWith('.')).map(s => {
    const target = relative(root, resolvePath(root, dirname(file), s)).replace(/\.js$/, '.ts')
    return known.has(target) ? target : undefined
  }).filter((x): x is string => x !== undefined)
  return [file, [...new Set(targets)]]
}))
const floors = new Map<string, number>()
function floorOf (file: string): number {
  const known = floors.get(file)
  if (known !== undefined) return known
  floors.set(file, 1) // no circle (npm run deps), so this guard never answers
  const floor = 1 + Math.max(0, ...(imports.get(file) ?? []).map(floorOf))
  floors.set(file, floor)
  return floor
}

// ---- the trace ------------------------------------------------------------------------------------

interface Entry { callee: string, caller: string | null }
let entries: Entry[] | null = null
const frame = /\((?:file:\/\/)?([^()]*?):\d+:\d+\)$|at (?:async )?(?:file:\/\/)?(\/[^()]*?):\d+:\d+$/
const projectFile = (path: string): string | null => {
  if (!path.startsWith(root)) return null
  const rel = path.slice(root.length)
  return known.has(rel) ? rel : null
}

;(globalThis as { __codePath?: (file: string) => void }).__codePath = (file: string) => {
  if (entries === null) return
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 12
  const lines = (new Error().stack ?? '').split('\n').slice(1)
  Error.stackTraceLimit = limit
  // lines[0]: this function; then the function entered; then its caller, past native frames.
  let at = 1
  while (at < lines.length && projectFile(frame.exec(lines[at].trim())?.slice(1).find(Boolean) ?? '') !== file) at++
  let caller: string | null = null
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line.includes('(<anonymous>)') || line.includes('(native)')) continue
    const path = frame.exec(line)?.slice(1).find(Boolean)
    caller = path === undefined ? null : projectFile(path)
    break
  }
  entries.push({ callee: file, caller })
}

async function traced (run: () => Promise<void>): Promise<Entry[]> {
  entries = []
  await run()
  const seen = entries
  entries = null
  return seen
}

interface Figures {
  entries: number
  files: Array<{ file: string, floor: number, entries: number, fromOtherFiles: number }>
  callsBetweenFiles: number
  climbs: Array<{ from: string, to: string, count: number }>
  climbsTotal: number
}

function figures (seen: Entry[]): Figures {
  const byFile = new Map<string, { entries: number, fromOtherFiles: number }>()
  const climbs = new Map<string, number>()
  let between = 0
  for (const e of seen) {
    const f = byFile.get(e.callee) ?? { entries: 0, fromOtherFiles: 0 }
    f.entries++
    if (e.caller !== null && e.caller !== e.callee) {
      f.fromOtherFiles++
      between++
      if (floorOf(e.callee) > floorOf(e.caller)) climbs.set(`${e.caller} -> ${e.callee}`, (climbs.get(`${e.caller} -> ${e.callee}`) ?? 0) + 1)
    }
    byFile.set(e.callee, f)
  }
  return {
    entries: seen.length,
    files: [...byFile].map(([file, f]) => ({ file, floor: floorOf(file), ...f })).sort((a, b) => b.floor - a.floor || a.file.localeCompare(b.file)),
    callsBetweenFiles: between,
    climbs: [...climbs].map(([pair, count]) => { const [from, to] = pair.split(' -> '); return { from, to, count } }).sort((a, b) => b.count - a.count || a.from.localeCompare(b.from)),
    climbsTotal: [...climbs.values()].reduce((a, b) => a + b, 0),
  }
}

// ---- the two operations ---------------------------------------------------------------------------

const receiver = createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')) })
await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`

const app = await buildApp({ config: { seed: 'code-path', clock: 'frozen', clockStart: '2026-03-10T15:00:00.000Z', settlementDelayMs: 50 } })
const sb = app.sandbox
const ok = async (res: Promise<{ statusCode: number, body: string, json: () => any }>): Promise<any> => {
  const r = await res
  if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`)
  return r.body === '' ? undefined : r.json()
}
const certificate = readFileSync(join(root, 'fixtures/certs/default-client.crt.pem'), 'utf8')
const { access_token: token } = await ok(app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(certificate) }, payload: { clientId: 'pix-sandbox-client', clientSecret: 'pix-sandbox-secret-2026' } }))
const auth = { authorization: `Bearer ${token}` }
const { document } = await ok(app.inject({ method: 'GET', url: '/__sandbox/accounts/1' }))

/** Until every delivery of the account has been attempted and its attempt recorded. */
async function deliveriesDone (): Promise<void> {
  for (let i = 0; i < 500; i++) {
    await sb.webhooks.idle()
    if (!sb.webhooks.deliveries({ accountId: 1 }, 1000).some(d => d.status === 'pending' && d.attempts.length === 0)) return
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  throw new Error('a delivery was never attempted')
}

await ok(app.inject({ method: 'PUT', url: `/v2/webhook/${document}`, headers: auth, payload: { webhookUrl: receiverUrl } }))
const cob = await ok(app.inject({ method: 'PUT', url: '/v2/cob/codepathcob0000000000000000001', headers: auth, payload: { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: document } }))
const cobPaid = figures(await traced(async () => {
  await ok(app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob.pixCopiaECola } }))
  await deliveriesDone()
}))

await ok(app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: receiverUrl } }))
const cashOut = figures(await traced(async () => {
  await ok(app.inject({
    method: 'POST',
    url: '/api/pix/cash-out',
    headers: auth,
    payload: { value: 12.34, description: 'code path', externalId: 'code-path-1', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } },
  }))
  await ok(app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60 } }))
  await deliveriesDone()
}))
const delivered = sb.webhooks.deliveries({ accountId: 1 }, 1000).map(d => `${d.eventType}:${d.status}`)

await app.close()
receiver.close()

if (json) {
  console.log(JSON.stringify({ cobPaid, cashOut, delivered }, null, 2))
} else {
  for (const [name, f] of [['A cob paid by QR code (POST /__sandbox/pix/pay, up to its /pix callback)', cobPaid], ['A cash-out (POST /api/pix/cash-out, its settlement and its cash_out webhook)', cashOut]] as const) {
    console.log(`\n${name}`)
    console.log(`  files visited: ${f.files.length}; functions entered: ${f.entries}; calls between files: ${f.callsBetweenFiles}; climbs back up: ${f.climbsTotal}`)
    console.log('  files (floor, entries, of which from another file):')
    for (const x of f.files) console.log(`    ${String(x.floor).padStart(2)}  ${x.file}  ${x.entries} (${x.fromOtherFiles})`)
    console.log('  climbs back up (caller -> callee: calls):')
    for (const c of f.climbs) console.log(`    ${c.from} -> ${c.to}: ${c.count}`)
  }
  console.log(`\ndeliveries: ${delivered.join(', ')}`)
}
