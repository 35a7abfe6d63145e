import t from 'tap'
import { buildTestApp, balanceOf, newAccount } from '../helpers/app.js'
import { recordEmits, cashOutEvents, cashOutBody, cashOut, advance, transaction, JOAO } from '../helpers/payouts.js'

// Every pay-out scenario of the catalogue against the real ledger and the webhooks it hands over.
// (QR Code scenarios: payouts-qrcode.test.ts; KEY_NOT_FOUND: dict.test.ts.)

const START = { available: 1000, blocked: 0, invariantHolds: true }

t.test('sync scenarios answer the real error, echo the scenario and reserve nothing', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 1000, fee: 1 })
  const cases: Array<[string, string]> = [
    ['INSUFFICIENT_FUNDS', 'PIX_INSUFFICIENT_BALANCE'],
    ['INVALID_KEY', 'PIX_INVALID_PIX_KEY'],
    ['TRANSACTION_LIMIT', 'PIX_TRANSACTION_LIMIT_EXCEEDED'],
    ['DAILY_LIMIT', 'PIX_DAILY_LIMIT_EXCEEDED'],
    ['NIGHT_LIMIT', 'PIX_NIGHT_LIMIT_EXCEEDED'],
  ]
  for (const [scenario, code] of cases) {
    const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), scenario)
    t.equal(res.statusCode, 400, scenario)
    t.equal(res.json().errorCode, code, scenario)
    t.equal(res.headers['x-sandbox-scenario-applied'], scenario)
    t.same(await balanceOf(app, acc.accountId), START, `${scenario}: nothing reserved`)
  }
  // The balance (1000) covers 10 + 1: the message says the refusal is simulated, not that 1000 is short.
  const simulated = await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  t.match(simulated.json().message, /simulado pelo cenário INSUFFICIENT_FUNDS/)
  t.notMatch(simulated.json().message, /disponível/)
  await advance(app, 1000)
  t.same(cashOutEvents(emitted), [], 'no webhook for a refused request')
  const list = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json()
  t.same(list.transactions, [], 'no transaction recorded')
})

t.test('an unknown scenario is a 400 listing the valid ones', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const res = await cashOut(app, acc.token, cashOutBody(), 'QRCODE_ALREADY_PAID')
  t.equal(res.statusCode, 400)
  t.match(res.json(), { code: 'UNKNOWN_SCENARIO', message: /INSUFFICIENT_FUNDS/ })
})

t.test('a near miss is UNKNOWN_SCENARIO with the name it most likely meant; a known scenario\'s bad parameter is INVALID_SCENARIO_PARAMETER naming it and what it takes', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const slip = await cashOut(app, acc.token, cashOutBody(), 'INSUFICIENT_FUNDS')
  t.equal(slip.statusCode, 400)
  t.match(slip.json(), {
    code: 'UNKNOWN_SCENARIO',
    errorCode: 'UNKNOWN_SCENARIO',
    message: /^Cenário desconhecido para cash-out: INSUFICIENT_FUNDS \(quis dizer INSUFFICIENT_FUNDS\?\)\. Cenários válidos para cash-out: /,
    details: { didYouMean: 'INSUFFICIENT_FUNDS', validScenarios: Array },
  })
  const far = await cashOut(app, acc.token, cashOutBody(), 'SOMETHING_ELSE')
  t.notOk('didYouMean' in far.json().details, 'nothing close: no guess')
  for (const [scenario, message] of [
    ['SETTLEMENT_DELAY;ms=abc', /^O parâmetro ms do cenário SETTLEMENT_DELAY deve ser um inteiro de milissegundos$/],
    ['SETTLEMENT_DELAY', /^O cenário SETTLEMENT_DELAY exige o parâmetro ms/],
    ['SETTLEMENT_DELAY;sm=10', /^Parâmetro desconhecido no cenário SETTLEMENT_DELAY: sm \(aceita ms\)$/],
    ['INSUFFICIENT_FUNDS;ms=10', /^Parâmetro desconhecido no cenário INSUFFICIENT_FUNDS: ms \(não aceita parâmetros\)$/],
  ] as const) {
    const res = await cashOut(app, acc.token, cashOutBody(), scenario)
    t.equal(res.statusCode, 400, scenario)
    t.match(res.json(), { code: 'INVALID_SCENARIO_PARAMETER', errorCode: 'INVALID_SCENARIO_PARAMETER', message, details: { endpoint: 'cash-out' } }, scenario)
  }
  // The control plane's arm form, in English.
  const arm = (scenario: string) => app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario } })
  t.match((await arm('INSUFICIENT_FUNDS')).json(), { code: 'UNKNOWN_SCENARIO', message: 'Unknown scenario: INSUFICIENT_FUNDS (did you mean INSUFFICIENT_FUNDS?)', details: { didYouMean: 'INSUFFICIENT_FUNDS' } })
  t.match((await arm('SETTLEMENT_DELAY;ms=abc')).json(), { code: 'INVALID_SCENARIO_PARAMETER', message: 'Parameter ms of scenario SETTLEMENT_DELAY must be a whole number of milliseconds' })
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/scenarios/armed?accountId=${acc.accountId}` })).json().armed, [], 'nothing armed')
})

t.test('async scenarios: accepted and reserved, then ERROR with the code, reservation released, failure webhook', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const codes = ['BLOCKED_ACCOUNT', 'ACCOUNT_CLOSED', 'ORDER_REJECTED', 'PAYMENT_EXPIRED', 'SETTLEMENT_TIMEOUT', 'TAX_ID_MISMATCH', 'INVALID_TAX_ID']
  for (const code of codes) {
    const acc = await newAccount(app, { balance: 1000, fee: 1 })
    const res = await cashOut(app, acc.token, cashOutBody({ value: 100 }), code)
    t.equal(res.statusCode, 201, code)
    t.equal(res.json().status, 'PENDING')
    t.same(await balanceOf(app, acc.accountId), { available: 899, blocked: 101, invariantHolds: true }, `${code}: value + fee reserved`)
    await advance(app, 50)
    t.same(await balanceOf(app, acc.accountId), START, `${code}: released`)
    const tx = await transaction(app, res.json().transactionId)
    t.match(tx, { status: 'ERROR', errorCode: code, scenarios: [{ name: code, params: {} }] })
    const events = cashOutEvents(emitted, tx.id)
    t.equal(events.length, 1)
    t.match(events[0].payload, { event: 'CashOut', status: 'ERROR', errorCode: code, errorMessage: /\S/, feeAmount: 1, originalAmount: 100, finalAmount: 101 })
  }
})

const holderDocument = (payload: unknown): string => (payload as { counterpart: { document: string } }).counterpart.document

t.test('DOCUMENT_MISMATCH creates the mismatch and the provider group decides: A, B (and D) refuse with nothing debited, C and E pay the key owner', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const refusals: Array<[string, string]> = [['A', 'PROVIDER_REJECTED'], ['B', 'TAX_ID_MISMATCH'], ['D', 'TAX_ID_MISMATCH']]
  for (const [group, code] of refusals) {
    const acc = await newAccount(app, { balance: 1000, fee: 1, providerGroup: group })
    const res = await cashOut(app, acc.token, cashOutBody({ value: 100 }), 'DOCUMENT_MISMATCH')
    await advance(app, 50)
    t.same(await balanceOf(app, acc.accountId), START, `group ${group}: no debit`)
    const [event] = cashOutEvents(emitted, res.json().transactionId)
    t.match(event.payload, { status: 'ERROR', errorCode: code }, `group ${group}`)
    t.not(holderDocument(event.payload), JOAO.document, `group ${group}: the holder's document differs from the one sent`)
  }
  // docs/gateway.md §2.4: C forwards the field unchecked, E does not send it; either way the key owner is paid.
  for (const group of ['C', 'E']) {
    const acc = await newAccount(app, { balance: 1000, fee: 1, providerGroup: group })
    const res = await cashOut(app, acc.token, cashOutBody({ value: 100 }), 'DOCUMENT_MISMATCH')
    await advance(app, 50)
    t.same(await balanceOf(app, acc.accountId), { available: 899, blocked: 0, invariantHolds: true }, `group ${group}: value + fee debited`)
    const tx = await transaction(app, res.json().transactionId)
    t.match(tx, { status: 'CONFIRMED', errorCode: null }, `group ${group}`)
    const [event] = cashOutEvents(emitted, tx.id)
    t.match(event.payload, { status: 'CONFIRMED', errorCode: null, pixKey: JOAO.key, counterpart: { name: 'JOAO SOUZA' } }, `group ${group}: paid to the key's holder`)
    t.not(holderDocument(event.payload), JOAO.document, `group ${group}: whose document is not the one sent`)
    t.match(holderDocument(event.payload), /^\d{11}$/)
  }
})

t.test('SETTLEMENT_DELAY;ms=N settles after N ms of sandbox time instead of the configured delay', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 1000, fee: 1 })
  const res = await cashOut(app, acc.token, cashOutBody({ value: 100 }), 'SETTLEMENT_DELAY;ms=5000')
  t.equal(res.headers['x-sandbox-scenario-applied'], 'SETTLEMENT_DELAY;ms=5000')
  t.equal((await transaction(app, res.json().transactionId)).dueAt, '2026-03-10T15:00:05.000Z')
  await advance(app, 4999)
  t.equal((await transaction(app, res.json().transactionId)).status, 'PENDING')
  t.same(cashOutEvents(emitted), [])
  await advance(app, 1)
  t.equal((await transaction(app, res.json().transactionId)).status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 899, blocked: 0, invariantHolds: true })
  t.match(cashOutEvents(emitted)[0].payload, { status: 'CONFIRMED', processingDate: '2026-03-10T15:00:05.000Z' })
  const bad = await cashOut(app, acc.token, cashOutBody(), 'SETTLEMENT_DELAY')
  t.equal(bad.statusCode, 400, 'ms is required')
})

t.test('a scenario armed for the account applies to clients that cannot send the header', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 1000, fee: 1 })
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario: 'ORDER_REJECTED', endpoint: 'cash-out', times: 1 } })
  t.equal(armed.statusCode, 201)
  const first = await cashOut(app, acc.token, cashOutBody({ value: 10 }))
  const second = await cashOut(app, acc.token, cashOutBody({ value: 10 }))
  await advance(app, 50)
  t.equal((await transaction(app, first.json().transactionId)).errorCode, 'ORDER_REJECTED')
  t.equal((await transaction(app, second.json().transactionId)).status, 'CONFIRMED', 'armed once, used once')
  t.same(await balanceOf(app, acc.accountId), { available: 989, blocked: 0, invariantHolds: true })
})
