import t from 'tap'
import { buildTestApp, tokenFor, bearer } from '../helpers/app.js'

t.test('the fixture account gets a token and reads its balance', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const res = await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { grossBalance: 10000, blockedBalance: 0, netBalance: 10000, consultedAt: '2026-03-10T15:00:00.000Z' })
})
