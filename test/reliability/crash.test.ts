import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, certHeaderOf, ledgerProblems, sleep, startProcess, type SandboxProcess } from '../helpers/reliability.js'

/**
 * Crash (docs/reliability.md): the real process with --data takes a burst of writes (cash-outs with unique
 * externalIds and control-plane balance credits) from concurrent clients, is killed with SIGKILL in the
 * middle of it, and restarted on the same file. The file loads, every operation answered 2xx before the
 * kill is there (each cash-out by its transactionId and externalId, the credits in the adjustments),
 * the pending settlements resume, and the ledger invariant holds for every account.
 */
const WORKERS = 8
const OPS_PER_WORKER = 60 // bounded: the kill comes long before, after KILL_AFTER acknowledgements
const KILL_AFTER = 120
const ARGS = ['--log-level', 'silent', '--jwt-secret', 'crash-test-jwt-secret-0123456789', '--seed', 'crash-seed', '--settlement-delay-ms', '200']

t.test('SIGKILL in the middle of a burst of writes loses nothing that was acknowledged', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-crash-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'state.json')
  const procs: SandboxProcess[] = []
  t.teardown(() => { for (const p of procs) p.kill('SIGKILL') })

  const first = await startProcess(['--data', file, ...ARGS])
  procs.push(first)
  const created = await call(first.base, 'POST', '/__sandbox/accounts', { body: { balance: 100_000 } })
  t.equal(created.status, 201)
  const account = created.json()
  const tokenRes = await call(first.base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(account.certificate) }, body: { clientId: account.clientId, clientSecret: account.clientSecret } })
  t.equal(tokenRes.status, 201)
  const token = tokenRes.json().access_token as string

  const cashOuts: Array<{ transactionId: string, externalId: string }> = []
  let credits = 0
  let sentCredits = 0
  let acknowledged = 0
  let networkErrors = 0
  const unexpected: string[] = []
  let killed = false
  let killedAt = 0

  const worker = async (w: number) => {
    for (let i = 0; i < OPS_PER_WORKER && !killed; i++) {
      try {
        if (i % 3 === 2) {
          sentCredits++
          const res = await call(first.base, 'POST', `/__sandbox/accounts/${account.accountId}/balance`, { body: { credit: 1 } })
          if (res.status === 200) credits++
          else unexpected.push(`credit: ${res.status} ${res.body}`)
        } else {
          const externalId = `crash-${w}-${i}`
          const res = await call(first.base, 'POST', '/api/pix/cash-out', {
            headers: { authorization: `Bearer ${token}` },
            body: { value: 1, externalId, details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao Souza', document: '03742693433' } },
          })
          if (res.status === 201) cashOuts.push({ transactionId: res.json().transactionId, externalId })
          else unexpected.push(`cash-out: ${res.status} ${res.body}`)
        }
        acknowledged++
        if (acknowledged >= KILL_AFTER && !killed) {
          killed = true
          killedAt = acknowledged
          first.kill('SIGKILL')
        }
      } catch {
        networkErrors++ // a request the kill cut off: it may or may not have been applied
        if (!killed) unexpected.push('network error before the kill')
      }
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)))
  const exit = await first.exited
  t.equal(exit.signal, 'SIGKILL', 'the first process was killed')
  t.same(unexpected, [], 'every request before the kill was answered 2xx')
  t.ok(killedAt >= KILL_AFTER, `killed after ${killedAt} acknowledgements, ${networkErrors} requests cut off`)
  t.doesNotThrow(() => JSON.parse(readFileSync(file, 'utf8')), 'the file is whole JSON after the kill')

  const second = await startProcess(['--data', file, ...ARGS])
  procs.push(second)
  const missing: string[] = []
  for (const c of cashOuts) {
    const res = await call(second.base, 'GET', `/__sandbox/transactions/${c.transactionId}`)
    if (res.status !== 200) missing.push(`${c.transactionId}: ${res.status}`)
    else if (res.json().externalId !== c.externalId) missing.push(`${c.transactionId}: externalId ${res.json().externalId}`)
  }
  t.same(missing, [], `all ${cashOuts.length} acknowledged cash-outs are in the reloaded store`)
  const view = (await call(second.base, 'GET', `/__sandbox/accounts/${account.accountId}`)).json()
  const adjustmentsCents = Math.round(view.totals.adjustments * 100)
  t.ok(adjustmentsCents >= credits * 100, `the ${credits} acknowledged credits are there (adjustments ${view.totals.adjustments})`)
  t.ok(adjustmentsCents <= sentCredits * 100, 'and nothing more than was sent')
  // A duplicate of an acknowledged externalId is still refused after the restart.
  const again = await call(second.base, 'POST', '/api/pix/cash-out', {
    headers: { authorization: `Bearer ${token}` },
    body: { value: 1, externalId: cashOuts[0].externalId, details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao Souza', document: '03742693433' } },
  })
  t.equal(again.status, 400, 'the externalId index was rebuilt from the file')
  t.equal(again.json().code, 'PIX_DUPLICATE_EXTERNAL_ID')

  // Pending settlements were rescheduled on load: wait (bounded) until none is left.
  let pending = -1
  for (let i = 0; i < 100; i++) {
    const list = (await call(second.base, 'GET', `/__sandbox/transactions?accountId=${account.accountId}&status=PENDING&limit=10000`)).json()
    pending = list.transactions.length
    if (pending === 0) break
    await sleep(100)
  }
  t.equal(pending, 0, 'every pending cash-out settled after the restart')
  const accounts = (await call(second.base, 'GET', '/__sandbox/accounts')).json().accounts
  t.same(accounts.flatMap(ledgerProblems), [], `the invariant holds for all ${accounts.length} accounts`)
  second.kill('SIGTERM')
  t.equal((await second.exited).code, 0)
})
