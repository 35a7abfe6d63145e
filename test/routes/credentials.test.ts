import t from 'tap'
import { buildTestApp, newAccount } from '../helpers/app.js'

/**
 * Credentials cannot be predicted. clientId and clientSecret once came from the seeded
 * generator, and health showed the seed to anyone, admin token or not. Credentials now come from a
 * cryptographic generator even with --seed (the seed still reproduces ids), and health shows the seed
 * only to whoever may use the control plane.
 */
t.test('two sandboxes with the same seed make the same ids but different credentials', async t => {
  const made = []
  for (let i = 0; i < 2; i++) {
    const app = await buildTestApp(t, { seed: 'same-seed' })
    const acc = await newAccount(app, { balance: 10 })
    const payIn = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 1 } })
    made.push({ acc, transactionId: payIn.json().transactionId, endToEndId: payIn.json().endToEndId })
  }
  const [a, b] = made
  t.equal(a.transactionId, b.transactionId, 'the seed still reproduces transaction ids')
  t.equal(a.endToEndId, b.endToEndId, 'and end-to-end ids')
  t.equal(a.acc.accountId, b.acc.accountId)
  t.not(a.acc.clientSecret, b.acc.clientSecret, 'the client secret does not follow from the seed')
  t.not(a.acc.clientId, b.acc.clientId, 'nor does the client id')
  t.match(a.acc.clientId, /^sbx-2-[0-9a-z]{12}$/, 'the clientId keeps its format')
  t.match(a.acc.clientSecret, /^[0-9A-Za-z]{32}$/, 'the clientSecret keeps its format')
})

t.test('health shows the seed only to whoever may use the control plane', async t => {
  const open = await buildTestApp(t, { seed: 'open-seed' })
  const anyone = (await open.inject({ method: 'GET', url: '/__sandbox/health' })).json()
  t.equal(anyone.seed, 'open-seed', 'without an admin token anyone may use the control plane, so anyone sees it')

  const guarded = await buildTestApp(t, { seed: 'guarded-seed', adminToken: 'the-admin-token' })
  const probe = await guarded.inject({ method: 'GET', url: '/__sandbox/health' })
  t.equal(probe.statusCode, 200, 'a container probe still gets 200')
  t.same(Object.keys(probe.json()).sort(), ['now', 'status', 'version'], 'status, version and time, no seed')
  const wrong = (await guarded.inject({ method: 'GET', url: '/__sandbox/health', headers: { 'x-sandbox-admin-token': 'not-the-token' } })).json()
  t.equal(wrong.seed, undefined, 'a wrong admin token sees no seed')
  const admin = (await guarded.inject({ method: 'GET', url: '/__sandbox/health', headers: { 'x-sandbox-admin-token': 'the-admin-token' } })).json()
  t.equal(admin.seed, 'guarded-seed', 'the admin token sees it')
  const bearer = (await guarded.inject({ method: 'GET', url: '/__sandbox/health', headers: { authorization: 'Bearer the-admin-token' } })).json()
  t.equal(bearer.seed, 'guarded-seed', 'as a bearer token too')
})
