import t from 'tap'
import { Writable } from 'node:stream'
import { buildTestApp, fixtureAccount, newAccount, tokenFor, bearer } from '../helpers/app.js'
import { cashOut, cashOutBody } from '../helpers/payouts.js'
import { prettyLine, prettyStream } from '../../server/journal/console.js'

/**
 * The console (docs/testing.md, See what your integration did): one line per request with its account, scenarios and error code, in JSON
 * lines or pretty; the dashboard's refreshes and health checks at debug only; one line per failed
 * webhook attempt and per delivery given up.
 */
function sink (): { stream: Writable, lines: string[] } {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _enc, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done() } })
  return { stream, lines }
}

t.test('JSON lines: one per request, with account, scenarios and code; polling at debug', async t => {
  const out = sink()
  const app = await buildTestApp(t, { webhookMaxAttempts: 2, webhookBackoffMs: 10 }, { logger: { level: 'debug', stream: out.stream } })
  const acc = await newAccount(app, { balance: 100 })
  await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  await app.inject({ method: 'GET', url: '/__sandbox/health' })
  await app.inject({ method: 'GET', url: '/__sandbox/clock', headers: { 'x-sandbox-client': 'dashboard' } })
  await app.inject({ method: 'GET', url: '/__sandbox/requests' })
  await app.inject({ method: 'GET', url: '/__sandbox/clock' })
  const requests = out.lines.map(l => JSON.parse(l)).filter(l => l.msg === 'request')
  const failed = requests.find(l => l.path === '/api/pix/cash-out')
  t.match(failed, { level: 30, method: 'POST', statusCode: 400, accountId: acc.accountId, scenarios: ['INSUFFICIENT_FUNDS'], code: 'PIX_INSUFFICIENT_BALANCE' })
  t.type(failed.durationMs, 'number')
  t.type(failed.requestId, 'string')
  const levels = requests.filter(l => l.method === 'GET').map(l => `${l.level} ${l.path}`)
  t.same(levels, ['20 /__sandbox/health', '20 /__sandbox/clock', '20 /__sandbox/requests', '30 /__sandbox/clock'], 'health, a dashboard refresh and a read of the journal at debug; the same call of a test at info')
  t.notOk(out.lines.some(l => l.includes(acc.token) || l.includes(acc.clientSecret)), 'no credential in the log')
})

t.test('pretty: the same line, readable', async t => {
  const out = sink()
  const app = await buildTestApp(t, {}, { logger: { level: 'info', stream: prettyStream(out.stream) } })
  const token = await tokenFor(app, fixtureAccount)
  await cashOut(app, token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  await app.inject({ method: 'GET', url: '/__sandbox/health' })
  const line = out.lines.find(l => l.includes('/api/pix/cash-out'))
  t.match(line, /^\d{2}:\d{2}:\d{2}\.\d{3}-03:00 POST \/api\/pix\/cash-out 400 [\d.]+ms acct=1 scenario=INSUFFICIENT_FUNDS code=PIX_INSUFFICIENT_BALANCE$/)
  t.match(out.lines.find(l => l.includes('/balance')), /^\d{2}:\d{2}:\d{2}\.\d{3}-03:00 GET \/balance 200 [\d.]+ms acct=1$/)
  t.notOk(out.lines.some(l => l.includes('/__sandbox/health')), 'health checks stay out at info')
  t.notOk(out.lines.some(l => l.startsWith('{')), 'no JSON line')
})

t.test('a webhook to a dead port: one line per failed attempt, one when the delivery gives up', async t => {
  const out = sink()
  const app = await buildTestApp(t, { webhookMaxAttempts: 3, webhookBackoffMs: 1000, webhookTimeoutMs: 2000 }, { logger: { level: 'info', stream: prettyStream(out.stream) } })
  // A port nothing listens on: bind one, note it, close it.
  const probe = await import('node:net').then(net => new Promise<number>(resolve => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)) }) }))
  const url = `http://127.0.0.1:${probe}/hook`
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url } })).statusCode, 201)
  const sent = (await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType: 'cash_out' } })).json()
  const id = sent.deliveries[0].id
  for (let i = 0; i < 3; i++) {
    await app.sandbox.webhooks.idle()
    await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 4000 } })
  }
  await app.sandbox.webhooks.idle()
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${id}` })).json().status, 'failed')
  const attempts = out.lines.filter(l => l.includes('webhook attempt'))
  t.equal(attempts.length, 3, attempts.join('\n'))
  t.match(attempts[0], new RegExp(`WARN webhook attempt 1/3 failed: cash_out to ${url} \\(.+\\); retry at 2026-03-10T12:00:0\\d\\.\\d{3}-03:00 deliveryId=`), 'in São Paulo time, as the sandbox clock has it')
  t.match(attempts[2], new RegExp(`WARN webhook attempt 3/3 failed: .*\\) deliveryId=${id}$`), 'the last has no retry; the delivery\'s id ends each line')
  const gaveUp = out.lines.filter(l => l.includes('gave up'))
  t.equal(gaveUp.length, 1)
  t.match(gaveUp[0], new RegExp(`ERROR webhook delivery ${id} gave up after 3 attempt\\(s\\): cash_out to ${url}`))
})

t.test('prettyLine: other lines keep their fields; what is not JSON passes as it is', async t => {
  t.equal(prettyLine('not json'), 'not json')
  const line = prettyLine(JSON.stringify({ level: 40, time: Date.parse('2026-03-10T15:00:01.234Z'), pid: 1, hostname: 'h', msg: 'something odd', count: 3, where: 'a place', err: { message: 'boom', stack: 'x' } }))
  t.equal(line, '12:00:01.234-03:00 WARN something odd count=3 where="a place" err=boom', 'São Paulo time, with its offset')
  t.equal(prettyLine(JSON.stringify({ level: 30, time: 0, msg: 'request', method: 'GET', path: '/x', statusCode: 200, durationMs: 1.5, accountId: null })), '21:00:00.000-03:00 GET /x 200 1.5ms')
})
