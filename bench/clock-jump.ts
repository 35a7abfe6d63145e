/**
 * One long jump of a running clock over Pix Automático's charges, with /webhookcobr at a live receiver:
 *   node --import tsx bench/clock-jump.ts [--recurrences 500] [--months 12] [--concurrency 8] [-- sandbox flags]
 * The real process (server/main.ts, silent, clock running from 2026-03-10T15:00:00Z) gets one
 * account's `/webhookcobr` pointed at a receiver in its own process (bench/receiver.ts), N approved
 * monthly recurrences and `months` charges of each (due on the 20th, 2026-04 on), then one
 * `POST /__sandbox/clock/set` 13 months ahead, which debits them all. Meanwhile a prober sends
 * `GET /__sandbox/health` one after another. It prints how long the jump took; the health latencies
 * during it (the longest, the median, and how many were answered before the jump ended); how long
 * until every delivery had ended, and the CPU time the sandbox process spent from the jump until then
 * (all its threads, the probes' included); the deliveries of `/webhookcobr` by status: delivered,
 * given up (PENDING_LIMIT, or a time-out), beside what the receiver counted (received, distinct ids).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { startReceiver } from './receiver.js'
import { benchArgs } from './args.js'

const { arg, sandboxFlags } = benchArgs()
const RECURRENCES = Number(arg('recurrences', '500'))
const MONTHS = Number(arg('months', '12'))
const CONCURRENCY = Number(arg('concurrency', '8'))
const ROOT = fileURLToPath(new URL('../', import.meta.url))
const START = '2026-03-10T15:00:00Z'
const JUMP_TO = '2027-04-10T15:00:00Z'
const CLIENT = { id: 'pix-sandbox-client', secret: 'pix-sandbox-secret-2026' }
const CERT = encodeURIComponent(readFileSync(new URL('../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8'))

/** CPU seconds the process has used (all its threads), from /proc. */
function cpuSeconds (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function freePort (): Promise<number> {
  const probe = createServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>(resolve => probe.close(() => resolve()))
  return port
}

/** The months' due dates: the 20th of each month from 2026-04. */
function dueDates (): string[] {
  return Array.from({ length: MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(2026, 3 + i, 20))
    return d.toISOString().slice(0, 10)
  })
}

/** In `CONCURRENCY` lanes, `work(i)` for i from 0 to n - 1. */
async function lanes (n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) await work(next++)
  }))
}

async function main (): Promise<void> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', String(port), '--host', '127.0.0.1', '--log-level', 'silent',
    '--clock-start', START, '--delivery-log-size', '1000000', '--max-pending-deliveries', '10000', ...sandboxFlags], { cwd: ROOT, stdio: 'inherit' })
  const base = `http://127.0.0.1:${port}`
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> => {
    const res = await request(base + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, body: body !== undefined ? JSON.stringify(body) : undefined })
    const text = await res.body.text()
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`)
    return text === '' ? null : JSON.parse(text)
  }
  const receiver = await startReceiver()
  try {
    for (;;) {
      try { await call('GET', '/__sandbox/health'); break } catch { await new Promise(resolve => setTimeout(resolve, 100)) }
    }
    const tokenRes = await request(`${base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`, 'x-ssl-client-cert': CERT, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    const token = ((await tokenRes.body.json()) as { access_token: string }).access_token
    const auth = { authorization: `Bearer ${token}` }
    await call('PUT', '/v2/webhookcobr', { webhookUrl: `http://127.0.0.1:${receiver.port}` }, auth)

    const setupStarted = Date.now()
    const idRecs: string[] = []
    await lanes(RECURRENCES, async i => {
      const rec = await call('POST', '/v2/rec', {
        vinculo: { contrato: `CONTRATO${i}`, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } },
        calendario: { dataInicial: '2026-04-20', dataFinal: '2027-04-19', periodicidade: 'MENSAL' },
        politicaRetentativa: 'PERMITE_3R_7D',
      }, auth)
      await call('POST', `/__sandbox/recurrences/${rec.idRec}/approve`, { pagador: { ispbParticipante: '60701190', cpf: '52998224725' } })
      idRecs[i] = rec.idRec
    })
    const dates = dueDates()
    await lanes(RECURRENCES * MONTHS, async k => {
      const i = Math.floor(k / MONTHS)
      const m = k % MONTHS
      const txid = `bench${String(i).padStart(5, '0')}m${String(m).padStart(2, '0')}`.padEnd(30, 'x')
      await call('PUT', `/v2/cobr/${txid}`, {
        idRec: idRecs[i],
        calendario: { dataDeVencimento: dates[m] },
        valor: { original: '49.90' },
        ajusteDiaUtil: true,
        recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
      }, auth)
    })
    const setupSeconds = (Date.now() - setupStarted) / 1000
    // The deliveries of the charges' creation go out first, so the jump's are the only ones left.
    await settled(call)
    const before = (await receiver.counts('/cobr')).received

    // The jump, and health probes one after another while it runs.
    const jump = { ended: Infinity }
    const probes: Array<{ sent: number, answered: number }> = []
    const prober = (async () => {
      while (jump.ended === Infinity) {
        const sent = performance.now()
        await call('GET', '/__sandbox/health')
        probes.push({ sent, answered: performance.now() })
        await new Promise(resolve => setTimeout(resolve, 20))
      }
    })()
    await new Promise(resolve => setTimeout(resolve, 50))
    const cpuBefore = cpuSeconds(child.pid!)
    const jumpStarted = performance.now()
    const clock = await call('POST', '/__sandbox/clock/set', { now: JUMP_TO })
    const jumpEnded = performance.now()
    jump.ended = jumpEnded
    const jumpMs = jumpEnded - jumpStarted
    await prober
    const allDoneMs = await settled(call) + jumpMs
    const cpu = cpuSeconds(child.pid!) - cpuBefore

    const snapshot = await call('GET', '/__sandbox/snapshot')
    const cobr = (Object.values(snapshot.deliveries) as Array<{ eventType: string, status: string, failureReason?: string, attempts: Array<{ error: string | null }> }>)
      .filter(d => d.eventType === 'cobr')
    const byStatus: Record<string, number> = {}
    for (const d of cobr) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1
    const failed = cobr.filter(d => d.status === 'failed')
    const counts = await receiver.counts('/cobr')
    // The probes sent while the jump ran: how long each waited, and how many were answered before it ended.
    const during = probes.filter(p => p.answered > jumpStarted && p.sent < jumpEnded)
    const health = during.map(p => p.answered - p.sent).sort((a, b) => a - b)
    console.log(JSON.stringify({
      recurrences: RECURRENCES,
      charges: RECURRENCES * MONTHS,
      setupSeconds,
      jumpSeconds: Math.round(jumpMs) / 1000,
      untilDeliveredSeconds: Math.round(allDoneMs) / 1000,
      sandboxCpuSeconds: Math.round(cpu * 100) / 100,
      nextJobAt: clock.nextJobAt,
      healthProbesDuringJump: during.length,
      healthAnsweredBeforeJumpEnded: during.filter(p => p.answered < jumpEnded).length,
      healthMaxMs: Math.round(health.at(-1) ?? 0),
      healthP50Ms: Math.round(health[Math.floor(health.length / 2)] ?? 0),
      cobrDeliveries: cobr.length,
      byStatus,
      givenUpPendingLimit: failed.filter(d => d.failureReason?.startsWith('PENDING_LIMIT')).length,
      failedWithTimeout: failed.filter(d => d.attempts.some(a => a.error?.startsWith('TIMEOUT'))).length,
      receivedBeforeJump: before,
      received: counts.received,
      distinctReceived: counts.distinct,
    }))
  } finally {
    receiver.close()
    child.kill('SIGKILL')
  }
}

/** Waits until no delivery is pending (and the scheduler holds no attempt); how long it took, in ms. */
async function settled (call: (method: 'GET', path: string) => Promise<any>): Promise<number> {
  const started = performance.now()
  for (;;) {
    const pending = await call('GET', '/__sandbox/webhooks/deliveries?status=pending&limit=1')
    if (pending.deliveries.length === 0) return performance.now() - started
    if (performance.now() - started > 600_000) throw new Error('deliveries still pending after 10 minutes')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
