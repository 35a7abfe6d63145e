import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildTestApp, newAccount } from '../helpers/app.js'

/**
 * An account's settings changed after its creation on the control plane (PATCH /__sandbox/accounts/{id}):
 * webhookMtlsCheck, whether configuring its API Pix webhooks checks an https receiver's mutual TLS
 * (docs/webhooks.md, mutual TLS; what it does to a real receiver: test/flows/webhooks-mtls.test.ts).
 * Set at creation, shown in the account's view, kept through a restart with --data and a snapshot.
 */

const view = async (app: Awaited<ReturnType<typeof buildTestApp>>, id: number) => (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${id}` })).json()

t.test('webhookMtlsCheck: on unless the account is created with it off; PATCH turns it off and on again', async t => {
  const app = await buildTestApp(t)
  t.match(await view(app, 1), { webhookMtlsCheck: true }, 'the fixture account: on')
  const on = await newAccount(app)
  t.match(await view(app, on.accountId), { webhookMtlsCheck: true }, 'a new account: on by default')
  const created = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { webhookMtlsCheck: false } })
  t.equal(created.statusCode, 201)
  t.match(created.json(), { webhookMtlsCheck: false })
  const id = created.json().accountId

  const patch = (accountId: number, payload: unknown) => app.inject({ method: 'PATCH', url: `/__sandbox/accounts/${accountId}`, payload: payload as object })
  const changed = await patch(id, { webhookMtlsCheck: true })
  t.equal(changed.statusCode, 200)
  t.match(changed.json(), { accountId: id, webhookMtlsCheck: true, invariantHolds: true }, 'the account as it now is')
  t.match(await view(app, id), { webhookMtlsCheck: true })
  t.match((await patch(on.accountId, { webhookMtlsCheck: false })).json(), { webhookMtlsCheck: false })
  t.match(await view(app, id), { webhookMtlsCheck: true }, 'only the account named changed')

  for (const [payload, what] of [[{}, 'nothing to change'], [{ webhookMtlsCheck: 'no' }, 'not a boolean'], [{ name: 'X' }, 'a setting that does not change']] as const) {
    const res = await patch(id, payload)
    t.equal(res.statusCode, 400, what)
    t.equal(res.json().code, 'HTTP_ERROR', what)
  }
  t.match(await view(app, id), { webhookMtlsCheck: true }, 'a refused change changes nothing')
  const missing = await patch(999, { webhookMtlsCheck: false })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'ACCOUNT_NOT_FOUND')
})

t.test('webhookMtlsCheck is kept through a restart with --data and a snapshot, whose schema checks it', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-account-settings-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const data = join(dir, 'state.json')
  const first = await buildTestApp(t, { data })
  const { accountId } = await newAccount(first)
  await first.inject({ method: 'PATCH', url: `/__sandbox/accounts/${accountId}`, payload: { webhookMtlsCheck: false } })
  const snapshot = (await first.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  await first.close()

  const restarted = await buildTestApp(t, { data })
  t.match(await view(restarted, accountId), { webhookMtlsCheck: false }, 'after a restart with --data')
  await restarted.close()

  const other = await buildTestApp(t)
  t.equal((await other.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.match(await view(other, accountId), { webhookMtlsCheck: false }, 'after a snapshot import')
  snapshot.accounts[String(accountId)].webhookMtlsCheck = 'off'
  const refused = await other.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().details.problems, [new RegExp(`^accounts/${accountId}/webhookMtlsCheck: `)])
})
