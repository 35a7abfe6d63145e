import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, certHeaderOf, ledgerProblems, sleep, startProcess, stop, type Answer, type SandboxProcess } from '../helpers/reliability.js'

/**
 * The kill -9 loop during Pix Automático's debits (docs/reliability.md): a real sandbox process with
 * --data and a frozen clock; each round an account (the receiver) has weekly recurrences its payers
 * approved, workers create their recurring charges (PUT /v2/cobr/{txid}) while another moves the
 * clock a day at a time, so the debits run (each paying the receiver) as the process is killed with
 * SIGKILL at a random moment. After each restart on the same file, for every round so far:
 *   - every charge whose creation was answered 201 is there (none lost);
 *   - no charge shows more than one PIX, the account holds as many received PIX as paid charges, and
 *     its balance is the sum of their values (no debit paid twice);
 *   - a charge whose debit time has passed on the sandbox clock was debited (no debit lost);
 *   - the ledger invariant holds on every account.
 *
 * Used by test/reliability/kill-recurring.test.ts (a few rounds, in `npm test`) and by
 * `npm run killtest -- N recurring`.
 */
export interface RecurringKillLoopOptions {
  rounds: number
  /** Workers creating charges beside the one moving the clock. */
  workers?: number
  /** The kill comes at a random moment between these (ms of load), once `minAnswered` charges were created and `minDays` days passed. */
  killAfterMs?: [number, number]
  minAnswered?: number
  minDays?: number
  log?: (line: string) => void
}

export interface RecurringKillLoopResult {
  rounds: number
  /** Charges whose creation was answered 201. */
  answered: number
  /** Charges debited (CONCLUIDA) by the end, over every round. */
  debited: number
  /** Days the clock moved while under load. */
  days: number
  /** Answered charges missing after a restart, or due and not debited. */
  lost: string[]
  /** A charge with more than one PIX, or money or PIX counts beyond the paid charges. */
  repeated: string[]
  ledger: string[]
  cutOff: number
  unexpected: string[]
}

const CLOCK_START = '2026-03-10T12:00:00-03:00'
const ARGS = ['--log-level', 'silent', '--jwt-secret', 'kill-loop-recurring-jwt-0123456789', '--seed', 'kill-loop-recurring', '--clock', 'frozen', '--clock-start', CLOCK_START, '--journal-compact-bytes', '8192']
const DAY = 86_400_000
/** A round that has not done its share of work by then is killed all the same, and says why. */
const STALL_MS = 60_000
/** Recurrences per round: weekly, each charge of one cycle, of its own value so that sums tell charges apart. */
const RECURRENCES = 4
const DEBTOR = { cpf: '52998224725', nome: 'Maria Pagadora' }
const RECEBEDOR = { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' }
/** The start of `GET /cobr`'s window: before every charge (its end is the clock's now: the loop moves it years). */
const SINCE = '2026-01-01T00:00:00Z'

interface Round {
  account: { id: number, clientId: string, clientSecret: string, certificate: string }
  /** txid -> value (cents) of each charge answered 201. */
  charges: Map<string, number>
}

interface CobR { txid: string, status: string, valor: { original: string }, calendario: { dataDeVencimento: string }, pix?: unknown[] }

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const cents = (brl: string): number => Math.round(Number(brl) * 100)

export async function runRecurringKillLoop (opts: RecurringKillLoopOptions): Promise<RecurringKillLoopResult> {
  const log = opts.log ?? (() => {})
  const workers = opts.workers ?? 3
  const [minKill, maxKill] = opts.killAfterMs ?? [400, 1500]
  const minAnswered = opts.minAnswered ?? 10
  const minDays = opts.minDays ?? 3
  const dir = mkdtempSync(join(tmpdir(), 'pix-kill-recurring-'))
  const file = join(dir, 'state.json')
  const result: RecurringKillLoopResult = { rounds: 0, answered: 0, debited: 0, days: 0, lost: [], repeated: [], ledger: [], cutOff: 0, unexpected: [] }
  const rounds: Round[] = []
  let proc: SandboxProcess | null = null
  let finished = false
  const unexpected = (res: Answer, what: string): void => { result.unexpected.push(`${what}: ${res.status} ${res.body.slice(0, 200)}`) }
  try {
    proc = await startProcess(['--data', file, ...ARGS])
    for (let round = 1; round <= opts.rounds; round++) {
      const base = proc.base
      const created = await call(base, 'POST', '/__sandbox/accounts', { body: { name: `RECEBEDOR ${round}`, balance: 0, fee: 0 } })
      if (created.status !== 201) throw new Error(`account: ${created.status} ${created.body}`)
      const a = created.json()
      const r: Round = { account: { id: a.accountId, clientId: a.clientId, clientSecret: a.clientSecret, certificate: a.certificate }, charges: new Map() }
      rounds.push(r)
      // A day of the clock outlives a token (1800 s): the clock's mover asks for a new one after each.
      let auth = { authorization: `Bearer ${await tokenOf(base, r.account)}` }
      const today = Date.parse((await call(base, 'GET', '/__sandbox/clock')).json().now)
      // Weekly from three days on: a charge a cycle, at least two days ahead of the clock when created.
      const first = today + 3 * DAY
      const recurrences: Array<{ idRec: string, valor: string, next: number }> = []
      for (let i = 0; i < RECURRENCES; i++) {
        const valor = `${round}.${String(10 + i).padStart(2, '0')}`
        const rec = await call(base, 'POST', '/v2/rec', {
          headers: auth,
          body: { vinculo: { contrato: `kill-${round}-${i}`, devedor: DEBTOR, objeto: 'Assinatura' }, calendario: { dataInicial: isoDay(first), dataFinal: isoDay(first + 700 * DAY), periodicidade: 'SEMANAL' }, valor: { valorRec: valor }, politicaRetentativa: 'NAO_PERMITE' },
        })
        if (rec.status !== 201) throw new Error(`rec: ${rec.status} ${rec.body}`)
        const { idRec } = rec.json()
        const approved = await call(base, 'POST', `/__sandbox/recurrences/${idRec}/approve`, { body: {} })
        if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.body}`)
        recurrences.push({ idRec, valor, next: 0 })
      }

      // An object, not a variable: the workers' loops read it, the kill sets it.
      const kill = { done: false }
      // The creators keep to the next fortnight: they wait for the clock to move, rather than charge years ahead.
      let moved!: () => void
      let clockMoved = new Promise<void>(resolve => { moved = resolve })
      let now = today
      // The mover moves a day once every creator has tried since the last move: the clock keeps pace with the charges.
      let tried = 0
      let triedEnough!: () => void
      let creatorsTried = new Promise<void>(resolve => { triedEnough = resolve })
      const attempted = (): void => { if (++tried >= workers) triedEnough() }
      let answeredInRound = 0
      let daysInRound = 0
      let lastRefusal = 'none'
      let enough!: () => void
      const enoughDone = new Promise<void>(resolve => { enough = resolve })
      const progress = (): void => { if (answeredInRound >= minAnswered && daysInRound >= minDays) enough() }
      const creator = async (w: number): Promise<void> => {
        for (let i = 0; !kill.done; i++) {
          const rec = recurrences[(w + i) % RECURRENCES]
          try {
            // The first cycle at least two days ahead: an earlier one is past, or too close to be charged.
            while (first + rec.next * 7 * DAY < now + 2 * DAY) rec.next++
            if (first + rec.next * 7 * DAY > now + 14 * DAY) {
              attempted()
              await Promise.race([clockMoved, proc!.exited])
              continue
            }
            const cycle = rec.next++
            const txid = `kr${round}r${(w + i) % RECURRENCES}c${cycle}`.padEnd(30, 'x')
            const res = await call(base, 'PUT', `/v2/cobr/${txid}`, {
              headers: auth,
              body: { idRec: rec.idRec, calendario: { dataDeVencimento: isoDay(first + cycle * 7 * DAY) }, valor: { original: rec.valor }, ajusteDiaUtil: false, recebedor: RECEBEDOR },
            })
            if (res.status === 201) {
              r.charges.set(txid, cents(rec.valor))
              result.answered++
              answeredInRound++
              progress()
            } else if (res.status === 400 || res.status === 401) {
              // A cycle the clock moved past meanwhile, or a token a day of the clock expired: the load makes no promise there.
              lastRefusal = res.body.slice(0, 300)
            } else {
              unexpected(res, `cobr ${txid}`)
            }
          } catch {
            if (kill.done) result.cutOff++
            else result.unexpected.push('a network error before the kill')
          }
          attempted()
        }
      }
      const mover = async (): Promise<void> => {
        while (!kill.done) {
          await Promise.race([creatorsTried, proc!.exited])
          tried = 0
          creatorsTried = new Promise<void>(resolve => { triedEnough = resolve })
          if (kill.done) break
          try {
            const res = await call(base, 'POST', '/__sandbox/clock/advance', { body: { ms: DAY } })
            if (res.status !== 200) unexpected(res, 'clock advance')
            else {
              now = Date.parse(res.json().now)
              auth = { authorization: `Bearer ${await tokenOf(base, r.account)}` }
              const wake = moved
              clockMoved = new Promise<void>(resolve => { moved = resolve })
              wake()
              result.days++
              daysInRound++
              progress()
            }
          } catch {
            if (kill.done) result.cutOff++
            else result.unexpected.push('a network error before the kill')
          }
        }
      }
      const load = Promise.all([mover(), ...Array.from({ length: workers }, (_, w) => creator(w))])
      let stallTimer: ReturnType<typeof setTimeout> | undefined
      const stalled = new Promise<void>(resolve => {
        stallTimer = setTimeout(() => {
          result.unexpected.push(`round ${round}: ${answeredInRound} charges created and ${daysInRound} days moved in ${STALL_MS / 1000} s (the last refusal: ${lastRefusal})`)
          resolve()
        }, STALL_MS)
      })
      await Promise.race([Promise.all([sleep(minKill + Math.random() * (maxKill - minKill)), enoughDone]), proc.exited, stalled])
      clearTimeout(stallTimer)
      kill.done = true
      await stop(proc, 'SIGKILL')
      await load
      result.rounds = round

      proc = await startProcess(['--data', file, ...ARGS])
      // What was due before the kill and did not run runs now (a frozen clock runs it when asked).
      await call(proc.base, 'POST', '/__sandbox/clock/advance', { body: { ms: 0 } })
      for (const each of rounds) await verify(proc.base, each, result, false)
      result.ledger = (await call(proc.base, 'GET', '/__sandbox/accounts')).json().accounts.flatMap(ledgerProblems)
      log(`round ${round}: ${result.answered} charges answered, ${result.days} days moved, ${result.lost.length} lost, ${result.repeated.length} repeated`)
    }
    // The end: every charge answered comes due (the latest within a fortnight of the clock), and is debited once.
    await call(proc.base, 'POST', '/__sandbox/clock/advance', { body: { ms: 21 * DAY } })
    result.debited = 0
    for (const each of rounds) result.debited += await verify(proc.base, each, result, true)
    result.ledger = (await call(proc.base, 'GET', '/__sandbox/accounts')).json().accounts.flatMap(ledgerProblems)
    finished = true
    return result
  } finally {
    // A graceful stop after the run; a kill when it failed.
    await stop(proc, finished ? 'SIGTERM' : 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

async function tokenOf (base: string, a: Round['account']): Promise<string> {
  const res = await call(base, 'POST', '/oauth/token', {
    headers: { authorization: `Basic ${Buffer.from(`${a.clientId}:${a.clientSecret}`).toString('base64')}`, 'x-ssl-client-cert': certHeaderOf(a.certificate), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.body}`)
  return res.json().access_token
}

/** Every charge of the account created by `now`, through API Pix's paged list. */
async function chargesOf (base: string, auth: Record<string, string>, now: number): Promise<CobR[]> {
  const all: CobR[] = []
  const window = `inicio=${SINCE}&fim=${new Date(now).toISOString()}`
  for (let page = 0; ; page++) {
    const res = await call(base, 'GET', `/v2/cobr?${window}&paginacao.itensPorPagina=1000&paginacao.paginaAtual=${page}`, { headers: auth })
    if (res.status !== 200) throw new Error(`GET /v2/cobr: ${res.status} ${res.body.slice(0, 200)}`)
    const body = res.json()
    all.push(...body.cobsr)
    if (page + 1 >= body.parametros.paginacao.quantidadeDePaginas) return all
  }
}

/**
 * One round's account after a restart: its answered charges there, none paid twice, the money and the
 * received PIX those paid, and (`final`: once the clock has passed every due date) every one paid.
 * Returns how many were paid.
 */
async function verify (base: string, r: Round, result: RecurringKillLoopResult, final: boolean): Promise<number> {
  const id = r.account.id
  // Each round's charges are verified after every later restart: a problem is reported once.
  const lost = (problem: string): void => { if (!result.lost.includes(problem)) result.lost.push(problem) }
  const repeated = (problem: string): void => { if (!result.repeated.includes(problem)) result.repeated.push(problem) }
  const auth = { authorization: `Bearer ${await tokenOf(base, r.account)}` }
  const now = Date.parse((await call(base, 'GET', '/__sandbox/clock')).json().now)
  const charges = await chargesOf(base, auth, now)
  const byTxid = new Map(charges.map(c => [c.txid, c]))
  for (const txid of r.charges.keys()) {
    const c = byTxid.get(txid)
    if (c === undefined) lost(`account ${id}: charge ${txid} answered 201 is gone`)
    // Debited at 08:00 São Paulo (11:00 UTC) on its due date; an hour's margin.
    else if (c.status !== 'CONCLUIDA' && (final || Date.parse(`${c.calendario.dataDeVencimento}T12:00:00Z`) < now)) {
      lost(`account ${id}: charge ${txid} due ${c.calendario.dataDeVencimento} is ${c.status} at ${new Date(now).toISOString()}`)
    }
  }
  let paid = 0
  let paidCents = 0
  for (const c of charges) {
    const pix = c.pix?.length ?? 0
    if (pix > 1) repeated(`account ${id}: charge ${c.txid} shows ${pix} PIX`)
    if (c.status === 'CONCLUIDA') {
      paid++
      paidCents += cents(c.valor.original)
      if (pix !== 1) repeated(`account ${id}: charge ${c.txid} CONCLUIDA with ${pix} PIX`)
    }
  }
  const account = (await call(base, 'GET', `/__sandbox/accounts/${id}`)).json()
  const held = Math.round((account.balance.available + account.balance.blocked) * 100)
  if (held !== paidCents) repeated(`account ${id}: holds ${held} cents, its ${paid} paid charges ${paidCents}`)
  const received = (await call(base, 'GET', `/__sandbox/transactions?accountId=${id}&kind=PIX_IN&limit=10000`)).json().transactions.length
  if (received !== paid) repeated(`account ${id}: ${received} received PIX for ${paid} paid charges`)
  return paid
}
