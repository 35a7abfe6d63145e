import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { balanceOf, bearer, buildTestApp, T0, tokenFor } from '../helpers/app.js'
import { cashInBody, createCashIn } from '../helpers/payins.js'
import { cashOutBody } from '../helpers/payouts.js'
import { startReceiver } from '../helpers/receiver.js'
import { oauthToken } from '../helpers/api-pix.js'
import { childEnv } from '../helpers/process.js'
import { run } from '../../cli/main.js'
import { parseDuration } from '../../cli/commands/clock.js'
import { commands } from '../../cli/commands/index.js'

/**
 * `pix-sandbox <command>` against a sandbox listening on a real port: each command's human and --json
 * output, what it changed in the sandbox, and its exit code (0 done, 1 refused, 2 usage, 3 unreachable).
 * Most run in this process through run() (the same function the process runs); the last tests spawn
 * the process itself for what only a process shows: its exit code and Ctrl-C ending tail.
 */

interface Ran { code: number, stdout: string, stderr: string }

async function sandbox (t: Test, config: Record<string, unknown> = {}): Promise<{ app: FastifyInstance, url: string }> {
  const app = await buildTestApp(t, config)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

function cli (url: string | null, argv: string[], opts: { env?: Record<string, string>, signal?: AbortSignal, onOut?: (all: string) => void, fetch?: typeof fetch } = {}): Promise<Ran> {
  let stdout = ''
  let stderr = ''
  return run(url === null ? argv : [...argv, '--url', url], {
    stdout: text => { stdout += text; opts.onOut?.(stdout) },
    stderr: text => { stderr += text },
    env: opts.env ?? {},
    signal: opts.signal,
    fetch: opts.fetch,
  }).then(code => ({ code, stdout, stderr }))
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean)

/** A fetch for the CLI that counts tail's polls of the delivery log (the journal does not keep them). */
function countingPolls (): { fetch: typeof fetch, polls: () => number } {
  let polls = 0
  return {
    fetch: (input, init) => {
      if (String(input).includes('/__sandbox/webhooks/deliveries')) polls++
      return fetch(input, init)
    },
    polls: () => polls,
  }
}

/** A port where nothing listens. */
async function closedPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise(resolve => server.close(resolve))
  return port
}

t.test('help lists every command; help <command> and <command> --help give its usage', async t => {
  const all = await cli(null, ['help'])
  t.equal(all.code, 0)
  for (const c of commands) t.match(all.stdout, new RegExp(`^  ${c.name} +\\S`, 'm'), `lists ${c.name}`)
  t.match(all.stdout, 'Exit codes: 0 done, 1 the sandbox refused, 2 usage error, 3 the sandbox cannot be reached,\n4 the integration report has a failed check (report).')
  t.equal((await cli(null, [])).stdout, all.stdout, 'no command is help')
  t.equal((await cli(null, ['--help'])).stdout, all.stdout)
  for (const c of commands) {
    const one = await cli(null, ['help', c.name])
    t.equal(one.code, 0)
    t.match(one.stdout, `Usage: pix-sandbox ${c.usage[0]}`)
    t.equal((await cli(null, [c.name, '--help'])).stdout, one.stdout, `${c.name} --help`)
  }
  const unknown = await cli(null, ['frobnicate'])
  t.equal(unknown.code, 2)
  t.match(unknown.stderr, 'pix-sandbox: unknown command "frobnicate"\n(pix-sandbox help lists the commands)')
  t.equal((await cli(null, ['help', 'frobnicate'])).code, 2)
})

t.test('a slip on the command line gets the word it most likely meant; a missing value says it is required', async t => {
  const slip = await cli(null, ['tial'])
  t.equal(slip.code, 2)
  t.match(slip.stderr, 'pix-sandbox: unknown command "tial": did you mean tail?\n')
  t.match((await cli(null, ['help', 'clokc'])).stderr, 'unknown command "clokc": did you mean clock?')
  t.match((await cli(null, ['hlep'])).stderr, 'did you mean help?')
  const option = await cli(null, ['token', '--acount', '1'])
  t.equal(option.code, 2)
  t.match(option.stderr, 'pix-sandbox: Unknown option \'--acount\': did you mean --account?\n')
  const action = await cli(null, ['clock', 'advnce', '1h'])
  t.equal(action.code, 2)
  t.match(action.stderr, 'unknown clock action "advnce": did you mean advance?')
  for (const argv of [['token'], ['report'], ['trigger', 'cash_out'], ['incoming', '--amount', '1']]) {
    const missing = await cli(null, argv)
    t.equal(missing.code, 2, argv.join(' '))
    t.match(missing.stderr, 'pix-sandbox: --account is required: a positive integer such as 1\n', argv.join(' '))
  }
  t.match((await cli(null, ['incoming', '--account', '1'])).stderr, '--amount is required: an amount in BRL such as 12.34')
  t.match((await cli(null, ['token', '--account', 'x'])).stderr, '--account needs a positive integer such as 1, not "x"')
})

t.test('account create prints credentials, certificate, private key and a working token', async t => {
  const { app, url } = await sandbox(t)
  const human = await cli(url, ['account', 'create', '--balance', '250.50', '--name', 'Loja Teste'])
  t.equal(human.code, 0, human.stderr)
  const id = Number(/^Account (\d+) created: LOJA TESTE|^Account (\d+) created: Loja Teste/m.exec(human.stdout)?.slice(1).find(Boolean))
  t.ok(id > 1, 'the new account\'s id is printed')
  const account = app.sandbox.store.account(id)!
  t.match(human.stdout, `clientId       ${account.clientId}`)
  t.match(human.stdout, `clientSecret   ${account.clientSecret}`)
  t.match(human.stdout, `accessToken    ${account.mercadoPago!.accessToken}`)
  t.match(human.stdout, `webhookSecret  ${account.mercadoPago!.webhookSecret}`)
  t.match(human.stdout, 'balance 250.50 BRL')
  t.match(human.stdout, /-----BEGIN CERTIFICATE-----[\s\S]+-----BEGIN PRIVATE KEY-----/)
  const token = /access token {3}(\S+)/.exec(human.stdout)![1]
  const balance = await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  t.equal(balance.json().netBalance, 250.5, 'the printed token is the account\'s')

  const json = await cli(url, ['account', 'create', '--json'])
  t.equal(json.code, 0)
  const created = JSON.parse(json.stdout)
  t.match(created, { accountId: id + 1, clientId: String, clientSecret: String, certificate: /BEGIN CERTIFICATE/, privateKey: /PRIVATE KEY/, token: { access_token: String, token_type: 'Bearer', expires_in: 1800 } })
  t.equal(lines(json.stdout).length, 1, 'one line of JSON')

  for (const argv of [['account'], ['account', 'delete'], ['account', 'create', '--balance', 'abc'], ['account', 'create', '--balance', '1.234'], ['account', 'create', '--bogus']]) {
    const bad = await cli(url, argv)
    t.equal(bad.code, 2, argv.join(' '))
    t.match(bad.stderr, 'Usage: pix-sandbox account create', `${argv.join(' ')}: the usage follows`)
  }
  t.equal(Object.keys(app.sandbox.store.data.accounts).length, id + 1, 'no account made by a refused command line')
})

t.test('token prints a token alone (for a shell variable), or JSON; an unknown account is refused', async t => {
  const { app, url } = await sandbox(t)
  const human = await cli(url, ['token', '--account', '1'])
  t.equal(human.code, 0, human.stderr)
  t.equal(lines(human.stdout).length, 1)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(human.stdout.trim()) })).statusCode, 200)
  const json = JSON.parse((await cli(url, ['token', '--account', '1', '--json'])).stdout)
  t.match(json, { accountId: 1, access_token: String, token_type: 'Bearer', expires_in: 1800 })

  const missing = await cli(url, ['token', '--account', '999', '--json'])
  t.equal(missing.code, 1)
  t.match(missing.stderr, /^pix-sandbox: the sandbox refused: 404 /)
  t.match(JSON.parse(missing.stdout), { error: { exitCode: 1, response: { statusCode: 404, body: { code: String } } } })
  for (const argv of [['token'], ['token', '--account', 'x'], ['token', '--account', '0'], ['token', '--account']]) t.equal((await cli(url, argv)).code, 2, argv.join(' '))
})

t.test('pay pays a charge by its code; incoming credits an account', async t => {
  const { app, url } = await sandbox(t)
  const token = (await cli(url, ['token', '--account', '1'])).stdout.trim()
  const charge = await createCashIn(app, token, cashInBody({ value: 42.1 }))
  const before = (await balanceOf(app, 1)).available
  const paid = await cli(url, ['pay', charge.pixCode])
  t.equal(paid.code, 0, paid.stderr)
  t.match(paid.stdout, /^Paid 42\.10 BRL to account 1: CASH_IN CONFIRMED\n {2}transactionId {2}\S+\n {2}endToEndId {5}E\w{31}\n/)
  t.equal((await balanceOf(app, 1)).available, before + 42.1, 'the account was credited')
  const again = await cli(url, ['pay', charge.pixCode, '--json'])
  t.equal(again.code, 1, 'a charge is paid once')
  t.match(JSON.parse(again.stdout), { error: { exitCode: 1, response: { statusCode: Number } } })

  const second = await createCashIn(app, token, cashInBody({ value: 5 }))
  const json = JSON.parse((await cli(url, ['pay', second.pixCode, '--amount', '5', '--json'])).stdout)
  t.match(json, { accountId: 1, kind: 'CASH_IN', amount: 5, transactionId: second.transactionId })
  for (const argv of [['pay'], ['pay', 'a', 'b'], ['pay', second.pixCode, '--amount', '-1']]) t.equal((await cli(url, argv)).code, 2, argv.join(' '))

  const incoming = await cli(url, ['incoming', '--account', '1', '--amount', '250'])
  t.equal(incoming.code, 0, incoming.stderr)
  t.match(incoming.stdout, /^Received 250\.00 BRL on account 1: PIX_IN CONFIRMED\n/)
  t.equal((await balanceOf(app, 1)).available, before + 42.1 + 5 + 250)
  t.match(JSON.parse((await cli(url, ['incoming', '--account', '1', '--amount', '0.5', '--json'])).stdout), { accountId: 1, kind: 'PIX_IN', amount: 0.5, endToEndId: String })
  t.equal((await cli(url, ['incoming', '--account', '999', '--amount', '1'])).code, 1, 'an unknown account is refused')
  for (const argv of [['incoming', '--account', '1'], ['incoming', '--amount', '1'], ['incoming', 'x', '--account', '1', '--amount', '1']]) t.equal((await cli(url, argv)).code, 2, argv.join(' '))
})

t.test('pay pays an API Pix cob by its location-based code (tag 26-25 a payload location of the sandbox), once, and not once unbound', async t => {
  const { app, url } = await sandbox(t)
  const token = await oauthToken(app)
  const create = async (txid: string) => {
    const res = await app.inject({ method: 'PUT', url: `/v2/cob/${txid}`, headers: bearer(token), payload: { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: 'loja@example.com' } })
    t.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const cob = await create('clipay'.padEnd(26, '0'))
  t.match(cob.pixCopiaECola, /0014br\.gov\.bcb\.pix25\d\d.*\/qr\/v2\/[0-9a-f]{32}/, 'no key in the code: its location')
  const before = (await balanceOf(app, 1)).available
  const paid = await cli(url, ['pay', cob.pixCopiaECola])
  t.equal(paid.code, 0, paid.stderr)
  t.match(paid.stdout, new RegExp(`^Paid 12\\.34 BRL to account 1: COB CONCLUIDA\n {2}transactionId {2}\\S+\n {2}endToEndId {5}E\\w{31}\n {2}txid {11}${cob.txid}\n`))
  t.equal((await balanceOf(app, 1)).available, before + 12.34, 'the account was credited')
  t.equal((await app.inject({ method: 'GET', url: `/v2/cob/${cob.txid}`, headers: bearer(token) })).json().status, 'CONCLUIDA')
  t.equal((await cli(url, ['pay', cob.pixCopiaECola])).code, 1, 'paid once')

  // Unbound from its location, a cob is no longer paid by the code that names it.
  const unbound = await create('cliunbound'.padEnd(26, '0'))
  await app.inject({ method: 'DELETE', url: `/v2/loc/${unbound.loc.id}/txid`, headers: bearer(token) })
  const refused = await cli(url, ['pay', unbound.pixCopiaECola, '--json'])
  t.equal(refused.code, 1)
  t.match(JSON.parse(refused.stdout), { error: { response: { statusCode: 404 } } })
})

t.test('clock shows, advances, sets, freezes and resumes the sandbox clock', async t => {
  const { app, url } = await sandbox(t)
  const shown = await cli(url, ['clock'])
  t.equal(shown.code, 0)
  // A person reads São Paulo time with its offset (T0 is noon there); --json keeps the API's UTC.
  t.equal(shown.stdout, '2026-03-10T12:00:00.000-03:00 (frozen)\nno timed effect pending\n')
  t.match(JSON.parse((await cli(url, ['clock', '--json'])).stdout), { now: T0 })
  const advanced = await cli(url, ['clock', 'advance', '1h30m'])
  t.equal(advanced.stdout, '2026-03-10T13:30:00.000-03:00 (frozen)\nno timed effect pending\n')
  t.equal(new Date(app.sandbox.clock.now()).toISOString(), '2026-03-10T16:30:00.000Z')
  const set = JSON.parse((await cli(url, ['clock', 'set', '2026-03-11T00:00:00-03:00', '--json'])).stdout)
  t.match(set, { now: '2026-03-11T03:00:00.000Z', frozen: true })
  t.match((await cli(url, ['clock', 'resume'])).stdout, /\(running/)
  t.equal(app.sandbox.clock.snapshot().frozen, false)
  t.match(JSON.parse((await cli(url, ['clock', 'freeze', '--json'])).stdout), { frozen: true })
  // A pay-out waits on the clock: the pending effect is shown.
  const token = (await cli(url, ['token', '--account', '1'])).stdout.trim()
  await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody() })
  t.match((await cli(url, ['clock'])).stdout, /\n1 timed effect\(s\) pending, the next at 2026-03-11T00:00:00\.\d{3}-03:00\n$/)

  const yesterday = await cli(url, ['clock', 'set', 'yesterday'])
  t.equal(yesterday.code, 2, 'what is not a time is a usage error')
  t.match(yesterday.stderr, 'pix-sandbox: "yesterday" is not a time: clock set needs an instant such as 2026-03-10T23:00:00-03:00')
  t.match(yesterday.stderr, 'pix-sandbox clock set TIME [--url URL]', 'the usage follows')
  t.equal((await cli(url, ['clock', 'set', '2026-02-30T10:00:00Z'])).code, 2, 'nor a day that does not exist')
  t.equal((await cli(url, ['clock', 'set', '1999-12-31T23:00:00Z'])).code, 1, 'the sandbox refuses a time outside its range')
  // Without an offset, São Paulo time; a date alone, its midnight there.
  t.match(JSON.parse((await cli(url, ['clock', 'set', '2026-03-12T08:30', '--json'])).stdout), { now: '2026-03-12T11:30:00.000Z' })
  t.match(JSON.parse((await cli(url, ['clock', 'set', '2026-03-13', '--json'])).stdout), { now: '2026-03-13T03:00:00.000Z' })
  for (const argv of [['clock', 'advance'], ['clock', 'advance', '1y'], ['clock', 'set'], ['clock', 'dance'], ['clock', 'freeze', 'now'], ['clock', 'advance', '1h', 'more']]) {
    t.equal((await cli(url, argv)).code, 2, argv.join(' '))
  }
  t.same(['1h', '90s', '1h30m', '2d', '500ms', '1500', '1m1s1ms'].map(parseDuration), [3_600_000, 90_000, 5_400_000, 172_800_000, 500, 1500, 61_001])
  t.equal(parseDuration('h'), null)
  // The error names every unit there is (2d works), and each form it shows works.
  const notDuration = (await cli(url, ['clock', 'advance', '1y'])).stderr.split('\n')[0]
  t.equal(notDuration, 'pix-sandbox: "1y" is not a duration such as 1h, 30m, 90s, 2d, 500ms, 1h30m, or plain milliseconds')
  for (const shown of notDuration.match(/\b\d+[a-z]*\b/g)!.filter(x => x !== '1y')) t.not(parseDuration(shown), null, `${shown}, which the error shows, is a duration`)
  for (const unit of ['d', 'h', 'm', 's', 'ms']) t.match(notDuration, new RegExp(`\\d${unit}\\b`), `the error shows ${unit}`)

  // The options of every command may come before its name, as they do after it.
  const before = await cli(null, ['--url', url, '--json', 'clock'])
  t.equal(before.code, 0, before.stderr)
  t.match(JSON.parse(before.stdout), { now: '2026-03-13T03:00:00.000Z' })
  t.match(JSON.parse((await cli(null, ['--json', `--url=${url}`, 'clock', 'advance', '1m'])).stdout), { now: '2026-03-13T03:01:00.000Z' })
  t.equal((await cli(null, ['--json'])).stdout, (await cli(null, ['help'])).stdout, 'options and no command: the help')
})

t.test('trigger sends a signed sample webhook to the account\'s receivers', async t => {
  const { app, url } = await sandbox(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const none = await cli(url, ['trigger', 'cash_out', '--account', '1'])
  t.equal(none.code, 0)
  t.match(none.stdout, 'account 1 has no active webhook for cash_out, so nothing was sent')
  const registered = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: receiver.url } })
  t.equal(registered.statusCode, 201, registered.body)

  const sent = await cli(url, ['trigger', 'cash_out', '--account', '1', '--transaction', 'tx-cli-1'])
  t.equal(sent.code, 0, sent.stderr)
  t.match(sent.stdout, new RegExp(`^Event \\S+ \\(cash_out\\) sent to 1 webhook\\(s\\):\\n {2}${receiver.url.replace(/[.]/g, '\\.')} +\\w+ +delivery \\S+\\n$`))
  const got = await receiver.nth(1)
  t.ok(got.headers['x-sandbox-delivery-id'], 'a real delivery')
  t.ok(got.headers['x-sandbox-signature'], 'signed as real ones are')
  t.match(got.body, 'tx-cli-1')
  const json = JSON.parse((await cli(url, ['trigger', 'cash_in', '--account', '1', '--json'])).stdout)
  t.match(json, { eventId: String, deliveries: [{ eventType: 'cash_in', status: 'no_receiver' }] })

  // A callback of API Pix reaches the account's webhook of API Pix for it, with no registration.
  const put = await app.inject({ method: 'PUT', url: '/v2/webhookcobr', headers: bearer(await oauthToken(app)), payload: { webhookUrl: receiver.url } })
  t.equal(put.statusCode, 200, put.body)
  const cobr = await cli(url, ['trigger', 'cobr', '--account', '1'])
  t.equal(cobr.code, 0, cobr.stderr)
  t.match(cobr.stdout, `(cobr) sent to 1 webhook(s):\n  ${receiver.url}/cobr  `)
  const gotCobr = await receiver.nth(2)
  t.equal(gotCobr.path, new URL(`${receiver.url}/cobr`).pathname)
  t.match(gotCobr.json(), { cobsr: [{ status: 'CONCLUIDA' }] })
  t.match((await cli(url, ['trigger', 'pix', '--account', '1'])).stdout, 'account 1 has no active webhook for pix, so nothing was sent (configure one on a key with PUT /v2/webhook/{chave})')

  for (const argv of [['trigger', '--account', '1'], ['trigger', 'cash_sideways', '--account', '1'], ['trigger', 'cash_out'], ['trigger', 'cash_out', 'more', '--account', '1']]) {
    t.equal((await cli(url, argv)).code, 2, argv.join(' '))
  }
  t.equal((await cli(url, ['trigger', 'cash_out', '--account', '999'])).code, 1)
})

t.test('trigger and wait take another dialect\'s event type (Mercado Pago\'s), which the sandbox names; a name none makes is a usage error naming those it takes', async t => {
  const { app, url } = await sandbox(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/accounts/1/mercado-pago/webhook', payload: { url: receiver.url } })).statusCode, 200)
  const sent = await cli(url, ['trigger', 'mercado_pago_payment', '--account', '1', '--transaction', 'tx-mp'])
  t.equal(sent.code, 0, sent.stderr)
  t.match(sent.stdout, '(mercado_pago_payment) sent to 1 webhook(s):')
  t.match((await receiver.nth(1)).json(), { type: 'payment', action: 'payment.updated' })
  const got = await cli(url, ['wait', 'mercado_pago_payment', '--transaction', 'tx-mp', '--status', 'delivered', '--timeout', '15s'])
  t.equal(got.code, 0, got.stderr)
  t.match(got.stdout, 'webhook mercado_pago_payment -> ')
  for (const argv of [['trigger', 'cash_sideways', '--account', '1'], ['wait', 'cash_sideways']]) {
    const bad = await cli(url, argv)
    t.equal(bad.code, 2, argv.join(' '))
    t.match(bad.stderr, /unknown event "cash_sideways": eventType must be one of: .*mercado_pago_payment/)
  }
})

t.test('wait prints the delivery it waited for; one that never came exits 1 with the closest deliveries and what became of them', async t => {
  const { app, url } = await sandbox(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: receiver.url } })
  await cli(url, ['trigger', 'cash_out', '--account', '1', '--transaction', 'tx-wait'])
  const got = await cli(url, ['wait', 'cash_out', '--transaction', 'tx-wait', '--status', 'delivered', '--timeout', '15s'])
  t.equal(got.code, 0, got.stderr)
  t.match(got.stdout, new RegExp(`^\\S+ +webhook cash_out -> ${receiver.url.replace(/[.]/g, '\\.')} +delivered, attempt 1 first: 200 +account 1 +delivery \\S+\\n$`))
  t.match(JSON.parse((await cli(url, ['wait', 'cash_out', '--account', '1', '--json'])).stdout), { eventType: 'cash_out', transactionId: 'tx-wait', status: 'delivered' })

  // No receiver of cash_in: the event is logged, never delivered, and the timeout says so.
  const none = JSON.parse((await cli(url, ['trigger', 'cash_in', '--account', '1', '--transaction', 'tx-none', '--json'])).stdout).deliveries[0]
  const missed = await cli(url, ['wait', 'cash_in', '--transaction', 'tx-none', '--status', 'delivered', '--timeout', '0'])
  t.equal(missed.code, 1)
  t.match(missed.stderr, `pix-sandbox: the sandbox refused: 408 No matching delivery within 0 ms; the closest: delivery ${none.id} (cash_in, transaction tx-none, account 1) is no receiver: account 1 had no active webhook for cash_in`)
  t.match(missed.stderr, `\n  near miss: delivery ${none.id} (cash_in) no_receiver; differs in status "no_receiver", not "delivered"\n`, 'each near miss on a line')
  t.match(missed.stderr, /\n {2}near miss: delivery \S+ \(cash_out\) delivered, last attempt: 200; differs in eventType "cash_out", not "cash_in"; transactionId "tx-wait", not "tx-none"\n/, 'and the one of another event, further off')
  t.match(JSON.parse((await cli(url, ['wait', 'cash_in', '--transaction', 'tx-none', '--status', 'delivered', '--timeout', '0', '--json'])).stdout), { error: { exitCode: 1, response: { statusCode: 408, body: { code: 'WAIT_TIMEOUT', details: { nearMisses: [{ id: none.id, status: 'no_receiver' }] } } } } })

  for (const argv of [['wait'], ['wait', 'cash_sideways'], ['wait', 'cash_out', '--status', 'arrived'], ['wait', 'cash_out', '--timeout', '2m'], ['wait', 'cash_out', '--timeout', 'soon'], ['wait', 'cash_out', 'more']]) {
    t.equal((await cli(url, argv)).code, 2, argv.join(' '))
  }
})

t.test('report grades an account and exits 4 when a check failed, for a CI job to gate on', async t => {
  const { app, url } = await sandbox(t)
  const created = JSON.parse((await cli(url, ['account', 'create', '--balance', '100', '--json'])).stdout)
  const clean = await cli(url, ['report', '--account', String(created.accountId)])
  t.equal(clean.code, 0, 'nothing failed yet: exit 0')
  t.match(lines(clean.stdout)[0], new RegExp(`^account ${created.accountId}: (passed|incomplete) \\(\\d+ passed, 0 failed, \\d+ not exercised, \\d+ not applicable\\)$`))
  t.match(clean.stdout, /^n\/a {3}scope-refusal-not-retried {2}/m, 'a check of API Pix alone does not apply to an account that never used it')
  // A request the gateway's validation refuses fails the requests-valid check.
  const refused = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${created.token.access_token}` }, payload: {} })
  t.equal(refused.statusCode, 400)
  const graded = await cli(url, ['report', '--account', String(created.accountId)])
  t.equal(graded.code, 4)
  t.match(graded.stdout, /^FAIL {2}requests-valid {2}/m)
  const json = await cli(url, ['report', '--account', String(created.accountId), '--json'])
  t.equal(json.code, 4)
  const report = JSON.parse(json.stdout)
  t.equal(report.verdict, 'failed')
  t.equal(report.checks.find((c: { id: string }) => c.id === 'requests-valid').status, 'failed')
  t.equal((await cli(url, ['report'])).code, 2, 'no --account: usage')
  t.equal((await cli(url, ['report', '--account', '999'])).code, 1, 'an unknown account: refused')
})

t.test('rec approves, rejects, expires and cancels recurrences as their payer, and lists them with their charges', async t => {
  const { app, url } = await sandbox(t)
  const token = await oauthToken(app)
  const debtor = { cpf: '52998224725', nome: 'MARIA PAGADORA' }
  const create = async (): Promise<string> => {
    const res = await app.inject({ method: 'POST', url: '/v2/rec', headers: bearer(token), payload: { vinculo: { contrato: 'CLI-1', devedor: debtor }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'NAO_PERMITE' } })
    t.equal(res.statusCode, 201, res.body)
    return res.json().idRec
  }
  const status = async (idRec: string): Promise<string> => (await app.inject({ method: 'GET', url: `/v2/rec/${idRec}`, headers: bearer(token) })).json().status

  const [approved, rejected, expired] = [await create(), await create(), await create()]
  const approve = await cli(url, ['rec', 'approve', approved])
  t.equal(approve.code, 0, approve.stderr)
  t.equal(approve.stdout, `${approved}  APROVADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1\n`)
  t.equal(await status(approved), 'APROVADA', 'the API shows it approved')
  t.equal((await cli(url, ['rec', 'approve', approved])).code, 1, 'approved once: the sandbox refuses (409)')

  t.match(JSON.parse((await cli(url, ['rec', 'reject', rejected, '--code', 'AP14', '--json'])).stdout), { idRec: rejected, status: 'REJEITADA', accountId: 1 })
  t.match((await app.inject({ method: 'GET', url: `/v2/rec/${rejected}`, headers: bearer(token) })).json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } })
  t.equal((await cli(url, ['rec', 'expire', expired])).code, 0)
  t.equal(await status(expired), 'EXPIRADA')

  // A recurring charge of the approved one shows under it, with its attempt, before its cancellation by the payer.
  const txid = 'clirec'.padEnd(26, '0')
  const cobr = await app.inject({ method: 'PUT', url: `/v2/cobr/${txid}`, headers: bearer(token), payload: { idRec: approved, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' }, ajusteDiaUtil: false, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } } })
  t.equal(cobr.statusCode, 201, cobr.body)
  await cli(url, ['clock', 'advance', '1s'])
  const listed = await cli(url, ['rec', 'list', '--account', '1'])
  t.equal(listed.code, 0, listed.stderr)
  t.same(lines(listed.stdout), [
    `${expired}  EXPIRADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1`,
    `${rejected}  REJEITADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1`,
    `${approved}  APROVADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1`,
    '  1 cobr: 1 ATIVA',
  ])
  const shown = await cli(url, ['rec', 'show', approved])
  t.equal(shown.code, 0, shown.stderr)
  t.same(lines(shown.stdout), [
    `${approved}  APROVADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1`,
    `  cobr ${txid}  due 2026-03-20  ATIVA  attempts: AGND 2026-03-20 AGENDADA`,
  ])
  t.same(JSON.parse((await cli(url, ['rec', 'list', '--json'])).stdout).recurrences.map((r: { idRec: string }) => r.idRec), [expired, rejected, approved])
  // A page at a time: the command for the next one, which ends the list.
  const first = await cli(url, ['rec', 'list', '--account', '1', '--limit', '2'])
  const more = lines(first.stdout).at(-1)!
  t.match(more, /^older ones: pix-sandbox rec list --account 1 --limit 2 --cursor \d+$/)
  t.same(lines((await cli(url, more.replace('older ones: pix-sandbox ', '').split(' '))).stdout), [
    `${approved}  APROVADA  MENSAL  fixed 49.90  debtor MARIA PAGADORA (52998224725)  account 1`,
    '  1 cobr: 1 ATIVA',
  ])
  t.equal((await cli(url, ['rec', 'cancel', approved])).code, 0)
  t.equal(await status(approved), 'CANCELADA')
  t.equal((await cli(url, ['rec', 'list', '--account', '2'])).stdout, 'no recurrence yet: POST /v2/rec creates one\n')

  // The static code of a contract: printed, paid with pay, and its recurrence approved by journey 4.
  const loc = (await app.inject({ method: 'POST', url: '/v2/locrec', headers: bearer(token) })).json()
  const withLoc = (await app.inject({ method: 'POST', url: '/v2/rec', headers: bearer(token), payload: { vinculo: { contrato: 'CLI2', devedor: debtor }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'NAO_PERMITE', loc: loc.id } })).json().idRec
  const printed = await cli(url, ['rec', 'static-code', withLoc, '--amount', '49.9'])
  t.equal(printed.code, 0, printed.stderr)
  const code = printed.stdout.trim()
  t.match(code, /^000201.*5405(49\.90).*62080504CLI2/)
  t.equal((await cli(url, ['pay', code])).code, 0)
  t.match((await app.inject({ method: 'GET', url: `/v2/rec/${withLoc}`, headers: bearer(token) })).json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_4' } })
  t.same(JSON.parse((await cli(url, ['rec', 'static-code', withLoc, '--amount', '49.90', '--json'])).stdout), { jornada: 'JORNADA_4', pixCopiaECola: code }, 'as the sandbox answers it')
  t.equal((await cli(url, ['rec', 'static-code', withLoc, '--key', 'outra@example.com'])).code, 1, 'a key the account does not hold: the sandbox refuses (400)')
  t.equal((await cli(url, ['rec', 'static-code', approved])).code, 1, 'no location: the sandbox refuses (409)')

  const unknown = await cli(url, ['rec', 'approve', 'RN000000002026031000000000000'])
  t.equal(unknown.code, 1, 'an unknown recurrence is the sandbox\'s refusal (404)')
  for (const argv of [['rec'], ['rec', 'aprove', approved], ['rec', 'approve'], ['rec', 'approve', 'not/an/id'], ['rec', 'approve', approved, 'more'], ['rec', 'reject', rejected, '--code', 'XX'], ['rec', 'approve', approved, '--code', 'AP13'], ['rec', 'list', approved], ['rec', 'list', '--account', 'x'], ['rec', 'list', '--limit', '0'], ['rec', 'show'], ['rec', 'show', approved, '--limit', '2'], ['rec', 'cancel', approved, '--account', '1'], ['rec', 'approve', approved, '--key', 'x'], ['rec', 'static-code', approved, '--amount', '0']]) {
    const ran = await cli(url, argv)
    t.equal(ran.code, 2, argv.join(' '))
    t.match(ran.stderr, 'Usage: pix-sandbox rec', 'the usage follows')
  }
  t.match((await cli(url, ['rec', 'aprove', approved])).stderr, 'did you mean approve?')
})

t.test('reset puts one account or the whole sandbox back', async t => {
  const { app, url } = await sandbox(t)
  const created = JSON.parse((await cli(url, ['account', 'create', '--balance', '10', '--json'])).stdout)
  await cli(url, ['incoming', '--account', String(created.accountId), '--amount', '5'])
  const one = await cli(url, ['reset', '--account', String(created.accountId)])
  t.equal(one.stdout, `Account ${created.accountId} reset to its first state\n`)
  t.equal((await balanceOf(app, created.accountId)).available, 10)
  const all = await cli(url, ['reset', '--json'])
  t.same(JSON.parse(all.stdout), { reset: 'all' })
  t.notOk(app.sandbox.store.account(created.accountId), 'accounts made since the start are gone')
  t.equal((await cli(url, ['reset'])).stdout, 'Sandbox reset to its fixtures\n')
  t.equal((await cli(url, ['reset', 'everything'])).code, 2)
  t.equal((await cli(url, ['reset', '--account', '999'])).code, 1)
})

t.test('reset --clock-start starts the whole sandbox over at an earlier date, which clock set cannot reach', async t => {
  const { app, url } = await sandbox(t)
  await cli(url, ['clock', 'advance', '2d'])
  const back = await cli(url, ['clock', 'set', '2026-03-01T09:00'])
  t.equal(back.code, 1)
  t.match(back.stderr, 'pix-sandbox reset --clock-start 2026-03-01T12:00:00.000Z', 'the refusal names the way back')
  const reset = await cli(url, ['reset', '--clock-start', '2026-03-01T09:00', '--clock', 'running'])
  t.equal(reset.code, 0, reset.stderr)
  t.match(reset.stdout, /^Sandbox reset to its fixtures, its clock at 2026-03-01T09:00:0\d\.\d{3}-03:00 \(running\)\n$/)
  t.equal(app.sandbox.clock.isFrozen(), false)
  const json = JSON.parse((await cli(url, ['reset', '--clock-start', '2026-03-01', '--clock', 'frozen', '--json'])).stdout)
  t.match(json, { reset: 'all', clock: { now: '2026-03-01T03:00:00.000Z', frozen: true } }, 'a date alone is its midnight in São Paulo')
  t.equal((await cli(url, ['reset'])).stdout, 'Sandbox reset to its fixtures\n')
  t.equal(new Date(app.sandbox.clock.now()).toISOString(), T0, 'the next plain reset: the sandbox\'s own --clock-start')
  for (const [argv, message] of [
    [['reset', '--clock-start', 'yesterday'], '--clock-start needs an instant such as 2026-03-10T23:00:00-03:00'],
    [['reset', '--clock', 'stopped'], '--clock needs running or frozen, not "stopped"'],
    [['reset', '--account', '1', '--clock-start', '2026-03-01'], 'leave out --account'],
  ] as Array<[string[], string]>) {
    const bad = await cli(url, argv)
    t.equal(bad.code, 2, argv.join(' '))
    t.match(bad.stderr, message)
  }
})

t.test('tail shows new requests and deliveries, one line each, until stopped', async t => {
  const { app, url } = await sandbox(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: receiver.url } })
  const token = (await cli(url, ['token', '--account', '1'])).stdout.trim()
  // tail reads the delivery log once it has taken its starting point in the journal.
  const { fetch: counting, polls } = countingPolls()
  const until = async (what: () => boolean): Promise<void> => {
    for (let i = 0; i < 400 && !what(); i++) await new Promise(resolve => setTimeout(resolve, 25))
  }

  for (const json of [false, true]) {
    const stop = new AbortController()
    let seen = ''
    const before = polls()
    const tailing = cli(url, ['tail', '--account', '1', ...(json ? ['--json'] : [])], { signal: stop.signal, onOut: all => { seen = all }, fetch: counting })
    // What happened before tail started is not shown: wait for its first poll.
    await until(() => polls() > before)
    await app.inject({ method: 'GET', url: '/balance', headers: { ...bearer(token), 'x-sandbox-scenario': 'RATE_LIMITED' } })
    await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType: 'cash_out' } })
    await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 2, amount: 1 } })
    await until(() => /delivered/.test(seen))
    stop.abort()
    const ran = await tailing
    t.equal(ran.code, 0, 'stopping is a clean end')
    if (!json) {
      t.match(ran.stdout, /^2026-03-10T12:00:00\.000-03:00 {2}GET {4}\/balance {2}429 RATE_LIMITED {2}[\d.]+ ms {2}account 1 {2}\[RATE_LIMITED\]$/m)
      t.match(ran.stdout, new RegExp(`webhook cash_out -> ${receiver.url.replace(/[.]/g, '\\.')} {2}delivered, attempt 1 first: 200 {2}account 1 {2}delivery \\S+$`, 'm'))
      t.notMatch(ran.stdout, /\/__sandbox\/(requests|webhooks\/deliveries)/, 'tail\'s own polls are not shown')
      t.notMatch(ran.stdout, '/api/auth/token', 'what came before is not shown')
      t.match(ran.stderr, `following ${url} (account 1)`)
    } else {
      const events = lines(ran.stdout).map(l => JSON.parse(l))
      t.match(events.filter(e => e.type === 'request'), [{ method: 'GET', path: '/balance', status: 429, accountId: 1, scenarios: ['RATE_LIMITED'] }])
      t.ok(events.some(e => e.type === 'delivery' && e.status === 'delivered' && e.eventType === 'cash_out'), 'the delivery, as JSON')
      t.equal(ran.stderr, '', 'nothing but JSON')
    }
    t.notMatch(ran.stdout, /"?accountId"?: ?2\b|account 2\b/, '--account keeps to the account')
  }
  t.equal((await cli(url, ['tail', 'now'])).code, 2)
})

t.test('the CLI\'s own requests are not the integration\'s: two tokens and a tail leave the report\'s token check passing and the journal free of polls', async t => {
  const { app, url } = await sandbox(t)
  // The integration: one token of its own for two requests.
  const own = await tokenFor(app)
  for (let i = 0; i < 2; i++) t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(own) })).statusCode, 200)
  // The developer, as the README has it: TOKEN=$(pix-sandbox token --account 1), twice.
  for (let i = 0; i < 2; i++) {
    const token = await cli(url, ['token', '--account', '1'])
    t.equal(token.code, 0, token.stderr)
    t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(token.stdout.trim()) })).statusCode, 200, 'the CLI\'s token works')
  }
  // A tail, stopped after a dozen polls of the delivery log (three seconds of it).
  const { fetch: counting, polls } = countingPolls()
  const stop = new AbortController()
  const tailing = cli(url, ['tail', '--account', '1'], { signal: stop.signal, fetch: counting })
  for (let i = 0; i < 800 && polls() < 12; i++) await new Promise(resolve => setTimeout(resolve, 25))
  stop.abort()
  t.equal((await tailing).code, 0)
  t.ok(polls() >= 12, `tail polled ${polls()} times`)

  const journal = app.sandbox.journal.list({}, { limit: 100_000 })
  t.same(journal.filter(r => r.method === 'GET' && r.path.startsWith('/__sandbox/')).map(r => r.path), [], 'none of the CLI\'s reads is journaled')
  t.equal(journal.filter(r => r.path === '/api/auth/token').length, 1, 'the only token request is the integration\'s')
  const report = await app.inject({ method: 'GET', url: '/__sandbox/report?accountId=1' })
  t.match(report.json().checks.find((c: { id: string }) => c.id === 'token-reused'), { status: 'passed', summary: '1 token for 4 authenticated requests' })
})

t.test('the admin token, a wrong --url and a sandbox that is not there', async t => {
  const { url } = await sandbox(t, { adminToken: 'cli-admin-secret' })
  const refused = await cli(url, ['clock'])
  t.equal(refused.code, 1)
  t.match(refused.stderr, 'the sandbox refused: 401')
  t.equal((await cli(url, ['clock'], { env: { SANDBOX_ADMIN_TOKEN: 'cli-admin-secret' } })).code, 0, 'SANDBOX_ADMIN_TOKEN')
  t.equal((await cli(url, ['clock', '--admin-token', 'cli-admin-secret'])).code, 0, '--admin-token')
  t.equal((await cli(null, ['clock'], { env: { SANDBOX_ADMIN_TOKEN: 'cli-admin-secret', SANDBOX_URL: url } })).code, 0, 'SANDBOX_URL')

  const port = await closedPort()
  const away = await cli(`http://127.0.0.1:${port}`, ['reset', '--json'])
  t.equal(away.code, 3)
  t.match(away.stderr, `pix-sandbox: cannot reach a sandbox at http://127.0.0.1:${port}: ECONNREFUSED`)
  t.match(JSON.parse(away.stdout), { error: { exitCode: 3 } })
  const bad = await cli('ftp://example', ['clock'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, '--url needs an http:// or https:// address')
})

const bin = fileURLToPath(new URL('../../cli/bin.ts', import.meta.url))

function spawnCli (args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv() }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exit = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)))
  return { child, exit, stdout: () => stdout, stderr: () => stderr }
}

t.test('the process: exit codes as documented, and Ctrl-C ends tail with 0', async t => {
  const { url } = await sandbox(t)
  const ok = spawnCli(['clock', '--json', '--url', url])
  t.equal(await ok.exit, 0, ok.stderr())
  t.match(JSON.parse(ok.stdout()), { now: T0 })
  const refused = spawnCli(['token', '--account', '999', '--url', url])
  t.equal(await refused.exit, 1)
  const usage = spawnCli(['clock', 'dance'])
  t.equal(await usage.exit, 2)
  const away = spawnCli(['clock', '--url', `http://127.0.0.1:${await closedPort()}`])
  t.equal(await away.exit, 3)

  const tail = spawnCli(['tail', '--url', url])
  for (let i = 0; i < 400 && !/following/.test(tail.stderr()); i++) await new Promise(resolve => setTimeout(resolve, 25))
  tail.child.kill('SIGINT')
  t.equal(await tail.exit, 0, tail.stderr())
})
