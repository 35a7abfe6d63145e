import t from 'tap'
import { bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'

/**
 * Snapshot import is atomic (docs/assumptions.md, State and clock): the whole document is checked before anything is
 * replaced, a refused one answers 400 with every problem listed and changes nothing.
 */
async function exported (app: Awaited<ReturnType<typeof buildTestApp>>): Promise<any> {
  return (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
}

t.test('accounts["1"] = {"id": 1} is a 400 listing the problems, and the sandbox goes on as before', async t => {
  const app = await buildTestApp(t)
  const snapshot = await exported(app)
  snapshot.accounts['1'] = { id: 1 }
  const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(res.statusCode, 400)
  t.equal(res.json().code, 'HTTP_ERROR')
  t.match(res.json().message, /This snapshot has problems; nothing was imported: accounts\/1\/name: /)
  t.match(res.json().details.problems, [/^accounts\/1\/name: /])
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).statusCode, 200, 'every account is still readable')
  t.ok(await tokenFor(app), 'the fixture account still gets a token')
})

t.test('every problem of a document is listed: shapes, references, dates, unknown keys', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(a.token), payload: cashOutBody({ value: 1 }) })
  const snapshot = await exported(app)
  const [txId] = Object.keys(snapshot.transactions)
  snapshot.transactions[txId].accountId = 99
  snapshot.transactions[txId].createdAt = '2026-02-30T00:00:00.000Z'
  snapshot.accounts[String(a.accountId)].clientId = snapshot.accounts['1'].clientId
  snapshot.directory = []
  snapshot.extra = true
  const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(res.statusCode, 400)
  const problems: string[] = res.json().details.problems
  for (const expected of [/^extra: not part of a pix-sandbox state$/, /^directory: must be an object keyed by id, not an array$/,
    new RegExp(`^transactions/${txId}/createdAt: must be an ISO 8601 instant such as .*, not "2026-02-30T00:00:00.000Z"$`),
    /^accounts\/\d+: clientId "pix-sandbox-client" is also account 1's$/]) {
    t.ok(problems.some(p => expected.test(p)), `${String(expected)} in ${problems.join(' | ')}`)
  }
  t.equal(problems.length, 4)
  snapshot.transactions[txId].createdAt = snapshot.transactions[txId].updatedAt
  delete snapshot.extra
  snapshot.directory = {}
  snapshot.accounts[String(a.accountId)].clientId = a.clientId
  const dangling = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.same(dangling.json().details.problems, [`transactions/${txId}: account 99 does not exist`])
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${txId}` })).json().accountId, a.accountId, 'nothing was replaced')
})

t.test('what is not a snapshot at all, or comes from a newer sandbox, says so', async t => {
  const app = await buildTestApp(t)
  const cases: Array<[unknown, RegExp]> = [
    [{ important: 'my app config' }, /This is not a pix-sandbox snapshot/],
    [{ format: 'pix-sandbox/state', formatVersion: 9, seq: {}, accounts: {}, transactions: {}, directory: {} }, /comes from a newer pix-sandbox.*format version 9/],
    [{ format: 'pix-sandbox/state', formatVersion: 'two', seq: {}, accounts: {}, transactions: {}, directory: {} }, /formatVersion must be a positive integer/],
    [{ format: 'pix-sandbox/state', formatVersion: 1, seq: {}, accounts: {}, transactions: {}, directory: {} }, /format version 1 was never written/],
  ]
  for (const [payload, message] of cases) {
    const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: payload as object })
    t.equal(res.statusCode, 400)
    t.match(res.json().message, message)
  }
})

t.test('an export of the previous format (schemaVersion 1) is read, and sequences behind the ids are raised', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const { format, formatVersion, clock, ...rest } = await exported(app)
  t.ok(format && formatVersion && clock)
  const legacy = { schemaVersion: 1, ...rest, seq: {} }
  const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: legacy })
  t.equal(res.statusCode, 200, res.body)
  t.ok(await tokenFor(app, a), 'its accounts work')
  const next = await newAccount(app)
  t.equal(next.accountId, a.accountId + 1, 'a new account does not take an id the snapshot uses')
})

t.test('a sandbox started with the same seed imports a snapshot without handing out its ids again', async t => {
  // Two sandboxes with the same seed draw the same numbers in the same order: the second one, after
  // the import, would make the first one's ids again, draw for draw, if its stream were not moved.
  const first = await buildTestApp(t)
  const made = (await first.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(await tokenFor(first)), payload: cashOutBody({ value: 1 }) })).json().transactionId
  const snapshot = await exported(first)
  const second = await buildTestApp(t)
  t.equal((await second.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const again = await second.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(await tokenFor(second)), payload: cashOutBody({ value: 1 }) })
  t.equal(again.statusCode, 201, again.body)
  t.not(again.json().transactionId, made)
  t.ok((await second.inject({ method: 'GET', url: `/__sandbox/transactions/${made}` })).json().externalId, 'the imported transaction is still there')
})
