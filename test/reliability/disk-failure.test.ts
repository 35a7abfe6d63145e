import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { Store } from '../../server/store/store.js'
import { T0, bearer, tokenFor } from '../helpers/app.js'
import { FaultyFs } from '../helpers/faulty-fs.js'
import { cashOutBody } from '../helpers/payouts.js'
import { startReceiver } from '../helpers/receiver.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * A disk that fails after start (docs/reliability.md: acknowledged means stored, refused means not applied).
 * The change is rolled back in memory, the answer is a 503 in the family's shape, health reports
 * degraded with the reason, nothing acknowledged is lost, and once the disk is back the next write
 * succeeds and health is ok again. No webhook goes out about a change that was not stored.
 */
async function sandbox (t: Test): Promise<{ app: FastifyInstance, fs: FaultyFs, file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pix-disk-'))
  const file = join(dir, 'state.json')
  const fs = new FaultyFs()
  const app = await buildApp({
    config: { data: file, seed: 'disk-seed', clock: 'frozen', clockStart: T0, settlementDelayMs: 50 },
    store: { fs, retryMs: 60_000 },
  })
  t.teardown(async () => {
    fs.heal()
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { app, fs, file }
}

const breakDisk = (fs: FaultyFs): void => {
  fs.fail('appendFile', 'journal')
  fs.fail('writeFile', 'pix-sandbox-tmp')
}

async function onDisk (file: string): Promise<Store> {
  const s = new Store({ file })
  await s.open()
  return s
}

t.test('every family answers 503 in its own shape, and nothing refused stays applied', async t => {
  const { app, fs, file } = await sandbox(t)
  const token = await tokenFor(app)
  const before = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 1 }) })
  t.equal(before.statusCode, 201, 'a write before the failure is acknowledged')
  const acknowledged = before.json().transactionId
  const accountsBefore = (await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length
  const balanceBefore = (await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).json()

  breakDisk(fs)
  const cashOut = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 2, externalId: 'refused-1' }) })
  t.equal(cashOut.statusCode, 503)
  t.equal(shapeProblem('extended', 503, cashOut.body), null, cashOut.body)
  t.match(cashOut.json(), { code: 'HTTP_ERROR', error: 'Service Unavailable', message: /nada foi aplicado/ })
  t.equal(cashOut.headers['retry-after'], '1')

  const dict = await app.inject({ method: 'POST', url: '/dict/pix', headers: { ...bearer(token), 'x-idempotency-key': randomUUID() }, payload: { pixKey: '52998224725', payment: { currency: 'BRL', amount: 3 } } })
  t.equal(dict.statusCode, 503)
  t.equal(shapeProblem('simple', 503, dict.body), null, dict.body)

  // API Pix: ServicoIndisponivel in problem details, and neither the cob nor its location stays.
  const cob = await app.inject({ method: 'PUT', url: `/v2/cob/${'apipix'.padEnd(30, '0')}`, headers: bearer(token), payload: { calendario: {}, valor: { original: '1.00' }, chave: 'x@example.com' } })
  t.equal(cob.statusCode, 503)
  t.equal(cob.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.equal(shapeProblem('problem', 503, cob.body), null, cob.body)
  t.match(cob.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', detail: /nada foi aplicado/ })
  t.same(app.sandbox.store.data.locations, {}, 'the location was rolled back with the cob')

  const account = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 5 } })
  t.equal(account.statusCode, 503)
  t.match(account.json(), { statusCode: 503, code: 'STORAGE_UNAVAILABLE', message: /could not be written.*not applied.*ENOSPC/ })

  // Refused means not applied: the account whose creation was refused is not listed, the money is where it was.
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, accountsBefore, 'the refused account does not exist')
  t.same((await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).json().netBalance, balanceBefore.netBalance, 'reads are answered while degraded, from what is stored')
  const list = (await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1' })).json().transactions
  t.same(list.map((x: { id: string }) => x.id), [acknowledged], 'only the acknowledged cash-out is there')

  const health = await app.inject({ method: 'GET', url: '/__sandbox/health' })
  t.equal(health.statusCode, 503)
  t.match(health.json(), { status: 'degraded', reason: /state\.json failed: ENOSPC/ })

  // The disk is back: the next write succeeds, health is ok, and the disk holds exactly what was acknowledged.
  fs.heal()
  const after = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 4, externalId: 'refused-1' }) })
  t.equal(after.statusCode, 201, 'the refused externalId was never used')
  const healthy = await app.inject({ method: 'GET', url: '/__sandbox/health' })
  t.equal(healthy.statusCode, 200)
  t.equal(healthy.json().status, 'ok')
  const stored = await onDisk(file)
  t.ok(stored.transaction(acknowledged), 'nothing acknowledged is lost')
  t.ok(stored.transaction(after.json().transactionId))
  t.equal(Object.values(stored.data.transactions).length, 2)
  t.equal(stored.account(1)!.balance.blockedCents, 100 + 50 + 400 + 50, 'the ledger on disk holds the two acknowledged reservations only')
})

t.test('while degraded no job runs, and a clock move that cannot be stored is taken back', async t => {
  const { app, fs } = await sandbox(t)
  const token = await tokenFor(app)
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 1 }) })
  const id = res.json().transactionId
  breakDisk(fs)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { credit: 1 } })).statusCode, 503)
  t.equal(app.sandbox.scheduler.isPaused(), true, 'jobs wait while the store cannot write')
  const advance = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  t.equal(advance.statusCode, 503)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json().now, T0, 'the clock is back where the disk has it')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${id}` })).json().status, 'PENDING', 'the settlement did not run')
  fs.heal()
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })).statusCode, 200)
  t.equal(app.sandbox.scheduler.isPaused(), false)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${id}` })).json().status, 'CONFIRMED', 'and runs once the disk is back')
})

t.test('no webhook goes out about a change whose write is still under way, nor about one that failed', async t => {
  const { app, fs } = await sandbox(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url: receiver.url } })).statusCode, 201)

  const slow = fs.hold('appendFile', 'journal', 'fail')
  const incoming = app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 1, amount: 7 } })
  await slow.reached
  await new Promise(resolve => setTimeout(resolve, 100))
  t.equal(receiver.requests.length, 0, 'nothing is sent while the credit is not on disk')
  slow.release()
  t.equal((await incoming).statusCode, 503, 'the write failed')
  await app.sandbox.webhooks.idle()
  t.equal(receiver.requests.length, 0, 'and the event of a refused change is never sent')
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?accountId=1' })).json().deliveries, [], 'its delivery was rolled back with it')

  fs.heal()
  const ok = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 1, amount: 8 } })
  t.equal(ok.statusCode, 201)
  const got = await receiver.next()
  t.equal(got.json().data.payment.amount, '8.00', 'a stored change is delivered as usual')
})
