import t from 'tap'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * Numbers a request names as an id, a count or a page are whole numbers in the safe range, or the
 * request is refused in its family's shape: a query string coerces `Infinity` and `1e300` to numbers,
 * and a JSON body's `1e400` parses to Infinity, which an integer with no maximum let through (a 500 on
 * the MED list, where the page is echoed, and lookups of "Account Infinity" elsewhere).
 */
const ODD = ['Infinity', '1e300', '9007199254740993']

t.test('the MED list refuses a page beyond its range instead of echoing it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  for (const page of ODD) {
    const res = await app.inject({ method: 'GET', url: `/api/med?page=${page}`, headers: bearer(acc.token) })
    t.equal(res.statusCode, 400, `page=${page}`)
    t.equal(shapeProblem('extended', 400, res.body), null, 'in the standard family\'s shape')
  }
  const last = await app.inject({ method: 'GET', url: '/api/med?page=1000000', headers: bearer(acc.token) })
  t.equal(last.statusCode, 200)
  t.equal(last.json().metadata.page, 1_000_000)
})

t.test('ids and counts of the control plane are safe whole numbers, in the path, the query and the body', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  for (const id of ODD) {
    for (const url of [`/__sandbox/accounts/${id}`, `/__sandbox/med/${id}`, `/__sandbox/requests/${id}`, `/__sandbox/report?accountId=${id}`, `/__sandbox/transactions?accountId=${id}`, `/__sandbox/webhooks?accountId=${id}`, `/__sandbox/requests?accountId=${id}`]) {
      const res = await app.inject({ method: 'GET', url })
      t.equal(res.statusCode, 400, url)
      t.equal(shapeProblem('sandbox', 400, res.body), null, 'in the control plane\'s shape')
    }
  }
  const json = { 'content-type': 'application/json' }
  for (const n of ['1e400', '1e300', '9007199254740993']) {
    for (const [url, payload] of [
      ['/__sandbox/scenarios/arm', `{"accountId":${n},"scenario":"INSUFFICIENT_FUNDS"}`],
      ['/__sandbox/pix/incoming', `{"accountId":${n},"amount":1}`],
      ['/__sandbox/webhooks/test', `{"accountId":${n},"eventType":"cash_out"}`],
      ['/__sandbox/reset', `{"accountId":${n}}`],
      ['/__sandbox/requests/verify', `{"times":${n}}`],
      ['/__sandbox/requests/verify', `{"accountId":${acc.accountId},"atLeast":${n}}`],
    ]) {
      const res = await app.inject({ method: 'POST', url, payload, headers: json })
      t.equal(res.statusCode, 400, `${url} ${payload}`)
      t.notMatch(res.body, /Infinity|e\+/, 'no such number in the answer')
    }
  }
  const largest = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${Number.MAX_SAFE_INTEGER}` })
  t.equal(largest.statusCode, 404, 'the largest safe id is an id: one no account has')
})
