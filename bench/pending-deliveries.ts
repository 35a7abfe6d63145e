/**
 * Memory of the sandbox process under a receiver that never takes its webhooks:
 *   node --import tsx bench/pending-deliveries.ts [--receiver dead|hanging] [--events 20000] [--clock frozen|running] [-- sandbox flags]
 * The real process (server/main.ts, silent) gets a cash_in receiver on 127.0.0.1 that is either dead
 * (a closed port: every attempt refused) or hanging (accepts, reads, never answers: every attempt
 * runs into SANDBOX_WEBHOOK_TIMEOUT_MS), then N events through POST /__sandbox/webhooks/test (16 at
 * a time). It prints the resident memory (VmRSS, and the peak VmHWM) before and after, the
 * deliveries the state holds (and how many are pending), and the scheduler's pending jobs. With a
 * running clock it waits 10 s after the last event, for attempts and retries to come and go.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo, Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { benchArgs } from './args.js'

const { arg, sandboxFlags } = benchArgs()
const RECEIVER = arg('receiver', 'dead')
const EVENTS = Number(arg('events', '20000'))
const CLOCK = arg('clock', RECEIVER === 'dead' ? 'frozen' : 'running')
/** With --heap-mb, the sandbox's V8 heap is capped there: a leak then ends the process, where headroom would not. */
const HEAP_MB = arg('heap-mb', '')
const ROOT = fileURLToPath(new URL('../', import.meta.url))

async function listen (server: Server): Promise<number> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** A port that refuses connections, or a server that takes requests and never answers. */
async function receiverUrl (): Promise<{ url: string, close: () => void }> {
  const server = createServer(socket => { socket.on('data', () => {}) })
  const port = await listen(server)
  if (RECEIVER === 'dead') {
    await new Promise<void>(resolve => server.close(() => resolve()))
    return { url: `http://127.0.0.1:${port}/dead`, close: () => {} }
  }
  return { url: `http://127.0.0.1:${port}/hang`, close: () => server.close() }
}

function memory (pid: number): { rss: number, peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN)
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
}

async function main (): Promise<void> {
  const probe = createServer()
  const port = await listen(probe)
  await new Promise<void>(resolve => probe.close(() => resolve()))
  const child = spawn(process.execPath, [...(HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []), '--import', 'tsx', 'server/main.ts', '--port', String(port), '--host', '127.0.0.1', '--log-level', 'silent', '--clock', CLOCK, ...sandboxFlags], { cwd: ROOT, stdio: 'inherit' })
  const base = `http://127.0.0.1:${port}`
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> => {
    const res = await request(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined })
    const text = await res.body.text()
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`)
    return JSON.parse(text)
  }
  for (;;) {
    try { await call('GET', '/__sandbox/health'); break } catch { await new Promise(resolve => setTimeout(resolve, 100)) }
  }
  const receiver = await receiverUrl()
  try {
    await call('POST', '/__sandbox/webhooks', { accountId: 1, eventType: 'cash_in', url: receiver.url })
    const before = memory(child.pid!)
    const started = Date.now()
    let sent = 0
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (sent < EVENTS) {
        sent++
        await call('POST', '/__sandbox/webhooks/test', { accountId: 1, eventType: 'cash_in' })
      }
    }))
    const emitSeconds = (Date.now() - started) / 1000
    if (CLOCK === 'running') await new Promise(resolve => setTimeout(resolve, 10_000))
    const after = memory(child.pid!)
    const snapshot = await call('GET', '/__sandbox/snapshot')
    const deliveries = Object.values(snapshot.deliveries) as Array<{ status: string }>
    const byStatus: Record<string, number> = {}
    for (const d of deliveries) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1
    const clock = await call('GET', '/__sandbox/clock')
    console.log(JSON.stringify({
      receiver: RECEIVER,
      sandboxFlags: sandboxFlags.join(' '),
      heapMB: HEAP_MB || null,
      clock: CLOCK,
      events: EVENTS,
      emitSeconds,
      rssBeforeMB: before.rss,
      rssAfterMB: after.rss,
      peakMB: after.peak,
      deliveries: deliveries.length,
      byStatus,
      pendingJobs: clock.pendingJobs,
    }))
  } finally {
    receiver.close()
    child.kill('SIGKILL')
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
