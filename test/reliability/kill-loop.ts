import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, watch } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TRANSACTION_KINDS } from '../../server/store/records.js'
import { call, certHeaderOf, ledgerProblems, sleep, startProcess, stop, type Answer, type SandboxProcess } from '../helpers/reliability.js'

/**
 * The kill -9 loop (docs/reliability.md): a real sandbox process with --data takes concurrent cash-outs,
 * directory transfers with idempotency keys, incoming PIX and refunds; it is killed with SIGKILL at a
 * random moment (a small compaction floor makes the journal fold often, so some kills land in the
 * middle of one); it restarts on the same file, and every write answered 2xx before the kill must be
 * there. Retrying an answered externalId is refused with the original id; retrying an answered
 * idempotency key returns the original transfer, never a second one; the ledger invariant holds.
 *
 * Used by test/reliability/kill.test.ts (a few rounds, in `npm test`) and by `npm run killtest -- N`.
 */
export interface KillLoopOptions {
  rounds: number
  workers?: number
  /** The kill comes at a random moment between these (ms of load), once the round has answered `minAnswered` writes. */
  killAfterMs?: [number, number]
  /** Writes answered in each round before its kill (20): a loaded machine answers few in the shortest time. */
  minAnswered?: number
  log?: (line: string) => void
}

export interface KillLoopResult {
  rounds: number
  answered: number
  /** Answered writes missing after a restart, with what went wrong. */
  lost: string[]
  /** Retries of answered externalIds or idempotency keys that did not give the original back. */
  duplicates: string[]
  /** Ledger invariant problems after a restart. */
  ledger: string[]
  /** Kills that found a compaction under way (its temp file, or two journal generations). */
  killsDuringCompaction: number
  /** Requests the kill cut off (their outcome unknown to the client: never counted as answered). */
  cutOff: number
  unexpected: string[]
}

/** The most records one listing of /__sandbox/transactions gives. */
const LISTING_MAX = 10_000

const ARGS = ['--log-level', 'silent', '--jwt-secret', 'kill-loop-jwt-secret-0123456789', '--seed', 'kill-loop', '--settlement-delay-ms', '30', '--journal-compact-bytes', '4096']
const DETAILS = { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao Souza', document: '03742693433' }

/** One account per round (its transactions are listed in one page), and what was answered for it. */
interface Answered {
  account: { id: number, clientId: string, clientSecret: string, certificate: string }
  cashOuts: Map<string, string>
  transfers: Map<string, number>
  incoming: Set<string>
  refunds: Set<string>
}

export async function runKillLoop (opts: KillLoopOptions): Promise<KillLoopResult> {
  const log = opts.log ?? (() => {})
  const workers = opts.workers ?? 6
  const [minKill, maxKill] = opts.killAfterMs ?? [300, 1200]
  const minAnswered = opts.minAnswered ?? 20
  const dir = mkdtempSync(join(tmpdir(), 'pix-kill-loop-'))
  const file = join(dir, 'state.json')
  const result: KillLoopResult = { rounds: 0, answered: 0, lost: [], duplicates: [], ledger: [], killsDuringCompaction: 0, cutOff: 0, unexpected: [] }
  const rounds: Answered[] = []
  let proc: SandboxProcess | null = null
  try {
    proc = await startProcess(['--data', file, ...ARGS])
    for (let round = 1; round <= opts.rounds; round++) {
      const base = proc.base
      const created = await call(base, 'POST', '/__sandbox/accounts', { body: { balance: 1e9, fee: 0, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } } })
      if (created.status !== 201) throw new Error(`account: ${created.status} ${created.body}`)
      const a = created.json()
      const answered: Answered = { account: { id: a.accountId, clientId: a.clientId, clientSecret: a.clientSecret, certificate: a.certificate }, cashOuts: new Map(), transfers: new Map(), incoming: new Set(), refunds: new Set() }
      rounds.push(answered)
      const account = answered.account
      const token = await tokenOf(base, account)
      let killed = false
      let answeredInRound = 0
      let enough!: () => void
      const enoughAnswered = new Promise<void>(resolve => { enough = resolve })
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; !killed; i++) {
          const kind = (w + i) % 4
          try {
            if (kind === 0) {
              const externalId = `k${round}-${w}-${i}`
              const res = await call(base, 'POST', '/api/pix/cash-out', { headers: { authorization: `Bearer ${token}` }, body: { value: 1.23, externalId, details: DETAILS } })
              if (res.status === 201) answered.cashOuts.set(externalId, res.json().transactionId)
              else unexpected(res, 'cash-out')
            } else if (kind === 1) {
              const key = randomUUID()
              const res = await call(base, 'POST', '/dict/pix', { headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': key }, body: { pixKey: '52998224725', payment: { currency: 'BRL', amount: 2.5 } } })
              if (res.status === 201) answered.transfers.set(key, res.json().id)
              else unexpected(res, 'dict/pix')
            } else if (kind === 2) {
              const res = await call(base, 'POST', '/__sandbox/pix/incoming', { body: { accountId: account.id, amount: 5 } })
              if (res.status === 201) answered.incoming.add(res.json().transactionId)
              else unexpected(res, 'pix/incoming')
            } else {
              const paid = [...answered.incoming]
              if (paid.length === 0) continue
              const original = paid[Math.floor(Math.random() * paid.length)]
              const res = await call(base, 'POST', `/api/pix/refund-in/${original}`, { headers: { authorization: `Bearer ${token}` }, body: { refundValue: 0.01 } })
              if (res.status === 201) answered.refunds.add(res.json().transactionId)
              // A refund of a payment refunded whole is refused (400): the load makes no promise there.
              else if (res.status !== 400) unexpected(res, 'refund-in')
            }
            result.answered++
            if (++answeredInRound === minAnswered) enough()
          } catch {
            if (killed) result.cutOff++
            else result.unexpected.push('a network error before the kill')
          }
        }
      }
      const load = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)))
      // Every other round the kill waits for a compaction to begin writing its base (its temp file
      // appears), so the loop surely kills in the middle of one; the others kill at a random moment.
      // A process that died on its own ends the wait too: the checks after the restart say what was lost.
      await Promise.race([Promise.all([sleep(minKill + Math.random() * (maxKill - minKill)), enoughAnswered]), proc.exited])
      if (round % 2 === 0) await compactionStarts(dir, 4000)
      killed = true
      await stop(proc, 'SIGKILL')
      await load
      const names = readdirSync(dir)
      if (names.some(n => n.includes('pix-sandbox-tmp')) || names.filter(n => n.includes('.journal-')).length > 1) result.killsDuringCompaction++
      result.rounds = round

      proc = await startProcess(['--data', file, ...ARGS])
      // Every round's writes again: a later compaction must not lose an earlier round's either.
      for (const r of rounds) await verify(proc.base, r, result)
      await ledger(proc.base, result)
      log(`round ${round}: ${result.answered} answered so far, ${result.lost.length} lost, ${result.killsDuringCompaction} kills during a compaction`)
    }
    await stop(proc, 'SIGTERM')
    proc = null
    return result
  } finally {
    await stop(proc, 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }

  function unexpected (res: Answer, what: string): void {
    result.unexpected.push(`${what}: ${res.status} ${res.body.slice(0, 200)}`)
  }
}

/** Resolves as soon as a base is being written in `dir` (a compaction), or after `timeoutMs`. */
function compactionStarts (dir: string, timeoutMs: number): Promise<void> {
  return new Promise(resolve => {
    const watcher = watch(dir, (_event, name) => { if (name?.includes('pix-sandbox-tmp')) done() })
    const timer = setTimeout(done, timeoutMs)
    function done (): void {
      clearTimeout(timer)
      watcher.close()
      resolve()
    }
  })
}

async function tokenOf (base: string, a: { clientId: string, clientSecret: string, certificate: string }): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(a.certificate) }, body: { clientId: a.clientId, clientSecret: a.clientSecret } })
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.body}`)
  return res.json().access_token
}

/** After a restart: every answered write is there, a retry gives the original back, the ledger adds up. */
async function verify (base: string, answered: Answered, result: KillLoopResult): Promise<void> {
  const account = answered.account
  // Kind by kind: a listing gives at most 10,000 records, and a long round leaves more than that in
  // one account (read as one listing, its oldest records looked lost).
  const all: Array<{ id: string, seq: number, externalId?: string, kind: string, idempotencyKey?: string }> = []
  for (const kind of TRANSACTION_KINDS) {
    const listed = await call(base, 'GET', `/__sandbox/transactions?accountId=${account.id}&kind=${kind}&limit=${LISTING_MAX}`)
    if (listed.status !== 200) {
      result.lost.push(`account ${account.id}: ${listed.status} ${listed.body.slice(0, 160)}`)
      return
    }
    const transactions = listed.json().transactions as typeof all
    if (transactions.length >= LISTING_MAX) throw new Error(`account ${account.id} has ${LISTING_MAX} or more ${kind} records: the kill loop cannot read them whole`)
    all.push(...transactions)
  }
  const byId = new Map(all.map(tx => [tx.id, tx]))
  const bySeq = new Map(all.map(tx => [tx.seq, tx]))
  for (const [externalId, id] of answered.cashOuts) {
    if (byId.get(id)?.externalId !== externalId) result.lost.push(`cash-out ${externalId} (${id})`)
  }
  for (const [key, seq] of answered.transfers) {
    if (bySeq.get(seq)?.kind !== 'DICT_TRANSFER') result.lost.push(`transfer ${seq} of idempotency key ${key}`)
  }
  for (const id of answered.incoming) if (!byId.has(id)) result.lost.push(`incoming PIX ${id}`)
  for (const id of answered.refunds) if (!byId.has(id)) result.lost.push(`refund ${id}`)

  // Retries, as a client that never saw the answer would make them: the original comes back.
  const token = await tokenOf(base, account)
  const transfersBefore = all.filter(tx => tx.kind === 'DICT_TRANSFER').length
  for (const [externalId, id] of [...answered.cashOuts].slice(-5)) {
    const res = await call(base, 'POST', '/api/pix/cash-out', { headers: { authorization: `Bearer ${token}` }, body: { value: 1.23, externalId, details: DETAILS } })
    const existing = res.status === 400 ? res.json().details?.existingTransactionId : undefined
    if (res.status !== 400 || res.json().code !== 'PIX_DUPLICATE_EXTERNAL_ID' || byId.get(id)?.seq !== existing) result.duplicates.push(`cash-out retry of ${externalId}: ${res.status} ${res.body.slice(0, 160)}`)
  }
  for (const [key, seq] of [...answered.transfers].slice(-5)) {
    const res = await call(base, 'POST', '/dict/pix', { headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': key }, body: { pixKey: '52998224725', payment: { currency: 'BRL', amount: 2.5 } } })
    if (res.status !== 201 || res.json().id !== seq) result.duplicates.push(`dict/pix retry of ${key}: ${res.status} ${res.body.slice(0, 160)}`)
  }
  const after = (await call(base, 'GET', `/__sandbox/transactions?accountId=${account.id}&kind=DICT_TRANSFER&limit=10000`)).json().transactions.length
  if (after !== transfersBefore) result.duplicates.push(`retried idempotency keys made ${after - transfersBefore} new transfers`)
}

async function ledger (base: string, result: KillLoopResult): Promise<void> {
  const accounts = (await call(base, 'GET', '/__sandbox/accounts')).json().accounts
  result.ledger.push(...accounts.flatMap(ledgerProblems))
}
