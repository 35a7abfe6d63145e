import t, { type Test } from 'tap'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import type { DeepReadonly, State } from '../../server/store/state.js'
import { Store } from '../../server/store/store.js'
import { T0, bearer, certHeader, newAccount, tokenFor } from '../helpers/app.js'

/**
 * --data FILE: every acknowledged change is on disk, the file is always whole JSON, and a new process
 * on the same file finds everything that was answered 2xx.
 */

function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-data-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const config = (data: string, extra: Partial<Config> = {}): Partial<Config> =>
  ({ data, seed: 'persist-seed', clock: 'frozen', clockStart: T0, jwtSecret: 'persistence-test-jwt-secret', ...extra })

/** What a restart would find: the base document and its journal, read by a fresh store. */
async function readState (file: string): Promise<DeepReadonly<State>> {
  const store = new Store({ file })
  await store.open()
  return store.data
}

t.test('a first start writes nothing until a change, then a restart finds accounts and balances', async t => {
  const file = join(tempDir(t), 'state.json')
  const app = await buildApp({ config: config(file) })
  const a = await newAccount(app, { balance: 123.45 })
  t.ok(existsSync(file), 'the file exists once a change was acknowledged')
  t.equal((await readState(file)).accounts[String(a.accountId)].balance.availableCents, 12345)
  const credit = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${a.accountId}/balance`, payload: { credit: 10 } })
  t.equal(credit.statusCode, 200)
  t.equal((await readState(file)).accounts[String(a.accountId)].balance.availableCents, 13345, 'on disk when the 200 arrives')
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { set: 42 } })
  await app.close()

  const again = await buildApp({ config: config(file) })
  t.teardown(() => again.close())
  const view = await again.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })
  t.equal(view.statusCode, 200, 'the created account survived')
  t.equal(view.json().balance.available, 133.45)
  t.equal(view.json().invariantHolds, true)
  t.equal((await again.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().balance.available, 42, 'the fixture account keeps its change (not re-seeded)')
  // Credentials and the certificate work after the restart, and a token from before still does (same jwt secret).
  const token = await tokenFor(again, a)
  t.equal((await again.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).json().netBalance, 133.45)
  t.equal((await again.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 200)
  // Sequences continue: no id is handed out twice.
  const b = await newAccount(again)
  t.equal(b.accountId, a.accountId + 1)
})

t.test('the file is valid JSON after every acknowledged write of a concurrent burst, and holds that write', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  const app = await buildApp({ config: config(file) })
  t.teardown(() => app.close())
  const a = await newAccount(app, { balance: 0 })
  const n = 40
  let acknowledged = 0
  const problems: string[] = []
  await Promise.all(Array.from({ length: n }, async () => {
    const res = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${a.accountId}/balance`, payload: { credit: 1 } })
    if (res.statusCode !== 200) { problems.push(`status ${res.statusCode}`); return }
    acknowledged++
    let state
    try {
      state = await readState(file)
    } catch (err) {
      problems.push(`not JSON after ${acknowledged} acknowledgements: ${(err as Error).message}`)
      return
    }
    const onDisk = state.accounts[String(a.accountId)].balance.availableCents
    if (onDisk < acknowledged * 100) problems.push(`after ${acknowledged} acknowledgements only ${onDisk} cents on disk`)
  }))
  t.same(problems, [])
  t.equal(acknowledged, n)
  t.equal((await readState(file)).accounts[String(a.accountId)].balance.availableCents, n * 100)
  t.same(readdirSync(dir).filter(n => !/^state\.json(\.journal-\d+)?$/.test(n)), [], 'no temporary file is left behind')
})

t.test('a token request and a full reset are persisted too', async t => {
  const file = join(tempDir(t), 'state.json')
  const app = await buildApp({ config: config(file) })
  const a = await newAccount(app)
  const reset = await app.inject({ method: 'POST', url: '/__sandbox/reset' })
  t.equal(reset.statusCode, 200)
  t.notOk((await readState(file)).accounts[String(a.accountId)], 'the reset is on disk when it is acknowledged')
  await app.close()
  const again = await buildApp({ config: config(file) })
  t.teardown(() => again.close())
  t.equal((await again.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })).statusCode, 404)
  t.equal((await again.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).statusCode, 200)
})

t.test('a snapshot import is persisted and survives a restart', async t => {
  const file = join(tempDir(t), 'state.json')
  const app = await buildApp({ config: config(file) })
  const snap = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snap.accounts['1'].balance.availableCents = 777
  snap.accounts['1'].totals.adjustmentsCents = 777 - snap.accounts['1'].totals.openingCents
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snap })).statusCode, 200)
  await app.close()
  const again = await buildApp({ config: config(file) })
  t.teardown(() => again.close())
  const view = (await again.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json()
  t.equal(view.balance.available, 7.77)
  t.equal(view.invariantHolds, true)
})

t.test('an empty or missing file starts from the fixtures', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'empty.json')
  writeFileSync(file, '')
  const app = await buildApp({ config: config(file) })
  t.teardown(() => app.close())
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-ssl-client-cert': certHeader(readFileSync(new URL('../../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8')) },
    payload: { clientId: 'pix-sandbox-client', clientSecret: 'pix-sandbox-secret-2026' },
  })
  t.equal(res.statusCode, 201)
})

t.test('a corrupt file stops the start and is left as it was', async t => {
  const file = join(tempDir(t), 'corrupt.json')
  writeFileSync(file, '{"schemaVersion": 1, "accounts": {')
  await t.rejects(buildApp({ config: config(file) }))
  t.equal(readFileSync(file, 'utf8'), '{"schemaVersion": 1, "accounts": {', 'nothing overwrote the data')
})
