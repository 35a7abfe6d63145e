import t from 'tap'
import { buildTestApp, balanceOf, newAccount, bearer, tokenFor } from '../helpers/app.js'
import { recordEmits, cashOutEvents, cashOutBody, cashOut, transaction, advance } from '../helpers/payouts.js'

t.test('the transaction list is newest first and filters by account, kind, status and limit', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 1000, fee: 0 })
  const b = await newAccount(app, { balance: 1000, fee: 0 })
  const ids: string[] = []
  for (const value of [1, 2, 3]) ids.push((await cashOut(app, a.token, cashOutBody({ value }))).json().transactionId)
  await cashOut(app, b.token, cashOutBody({ value: 4 }))
  await app.inject({ method: 'POST', url: `/__sandbox/transactions/${ids[0]}/fail`, payload: { errorCode: 'ORDER_REJECTED' } })

  const list = async (qs: string) => (await app.inject({ method: 'GET', url: `/__sandbox/transactions?${qs}` })).json().transactions
  t.same((await list(`accountId=${a.accountId}`)).map((x: { id: string }) => x.id), [...ids].reverse())
  t.same((await list(`accountId=${a.accountId}&status=ERROR`)).map((x: { id: string }) => x.id), [ids[0]])
  t.same((await list(`accountId=${a.accountId}&limit=1`)).map((x: { amount: number }) => x.amount), [3])
  t.equal((await list('kind=CASH_OUT')).length, 4)
  t.equal((await list('kind=DICT_TRANSFER')).length, 0)
  const bad = await app.inject({ method: 'GET', url: '/__sandbox/transactions?kind=NOPE' })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'HTTP_ERROR')
})

t.test('one transaction by UUID or numeric id, with its history; 404 otherwise', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0.25 })
  const res = await cashOut(app, acc.token, cashOutBody({ value: 10, externalId: 'hist' }))
  const byUuid = await transaction(app, res.json().transactionId)
  const bySeq = await transaction(app, byUuid.seq)
  t.same(bySeq, byUuid)
  t.match(byUuid, { kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amount: 10, fee: 0.25, externalId: 'hist', accountId: acc.accountId, dueAt: '2026-03-10T15:00:00.050Z' })
  t.same(byUuid.history, [{ status: 'PENDING', at: '2026-03-10T15:00:00.000Z' }])
  const missing = await app.inject({ method: 'GET', url: '/__sandbox/transactions/does-not-exist' })
  t.equal(missing.statusCode, 404)
  t.match(missing.json(), { statusCode: 404, code: 'TRANSACTION_NOT_FOUND' })
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/transactions/999999' })).statusCode, 404)
})

t.test('settle and fail steer a pending pay-out; anything not pending is a 409', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 1 })
  // A forced settlement succeeds even where the natural one would fail.
  const toSettle = (await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'ORDER_REJECTED')).json().transactionId
  const toFail = (await cashOut(app, acc.token, cashOutBody({ value: 20 }))).json().transactionId

  const settled = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${toSettle}/settle` })
  t.equal(settled.statusCode, 200)
  t.match(settled.json(), { status: 'CONFIRMED', endToEndId: /^E99999004/ })
  const failed = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${toFail}/fail`, payload: { errorCode: 'SETTLEMENT_TIMEOUT' } })
  t.equal(failed.statusCode, 200)
  t.match(failed.json(), { status: 'ERROR', errorCode: 'SETTLEMENT_TIMEOUT', errorMessage: /\S/ })
  t.same(await balanceOf(app, acc.accountId), { available: 89, blocked: 0, invariantHolds: true })
  t.match(cashOutEvents(emitted, toSettle)[0].payload, { status: 'CONFIRMED' })
  t.match(cashOutEvents(emitted, toFail)[0].payload, { status: 'ERROR', errorCode: 'SETTLEMENT_TIMEOUT' })

  await advance(app, 1000)
  t.equal(cashOutEvents(emitted).length, 2, 'the scheduled settlement does nothing once steered')
  for (const [id, action] of [[toSettle, 'settle'], [toFail, 'fail'], [toSettle, 'fail']]) {
    const res = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${id}/${action}`, payload: action === 'fail' ? { errorCode: 'ORDER_REJECTED' } : undefined })
    t.equal(res.statusCode, 409, `${action} of a final transaction`)
    t.equal(res.json().code, 'TRANSACTION_NOT_PENDING')
  }
  const pending = (await cashOut(app, acc.token, cashOutBody({ value: 1 }))).json().transactionId
  const badCode = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${pending}/fail`, payload: { errorCode: 'QRCODE_ALREADY_PAID' } })
  t.equal(badCode.statusCode, 400, 'only the asynchronous codes of spec 6.4')
  t.equal((await transaction(app, pending)).status, 'PENDING')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/transactions/nope/settle' })).statusCode, 404)
})

t.test('pending settlements survive a snapshot export and import', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0, limits: { daily: 50 } })
  const id = (await cashOut(app, acc.token, cashOutBody({ value: 30 }), 'SETTLEMENT_DELAY;ms=1000')).json().transactionId
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const imported = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(imported.statusCode, 200)
  // The import is a new life of the account: a token issued before it no longer counts.
  const over = await cashOut(app, await tokenFor(app, acc), cashOutBody({ value: 20.01 }))
  t.equal(over.json().errorCode, 'PIX_DAILY_LIMIT_EXCEEDED', 'the day\'s total is rebuilt from the records')
  await advance(app, 1000)
  t.equal((await transaction(app, id)).status, 'CONFIRMED', 'rescheduled after the import')
  t.equal(cashOutEvents(emitted, id).length, 1)
  t.same(await balanceOf(app, acc.accountId), { available: 70, blocked: 0, invariantHolds: true })
})

t.test('a reset forgets pending settlements and the day\'s totals', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0, limits: { daily: 50 } })
  await cashOut(app, acc.token, cashOutBody({ value: 50 }))
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  await advance(app, 1000)
  t.same(cashOutEvents(emitted), [])
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
  t.equal((await cashOut(app, await tokenFor(app, acc), cashOutBody({ value: 50 }))).statusCode, 201, 'the daily total starts again')
})

t.test('the key directory: list, add or replace with format checks, remove', async t => {
  const app = await buildTestApp(t)
  const list = (await app.inject({ method: 'GET', url: '/__sandbox/directory' })).json().entries
  const types = new Set(list.map((e: { keyType: string }) => e.keyType))
  t.same([...types].sort(), ['CNPJ', 'CPF', 'EMAIL', 'EVP', 'PHONE'], 'the fixture lists every key type')
  t.ok(list.some((e: { accountStatus?: string }) => e.accountStatus === 'BLOCKED'))
  t.ok(list.some((e: { accountStatus?: string }) => e.accountStatus === 'CLOSED'))
  t.ok(list.some((e: { ispb: string }) => e.ispb !== '00000000'))

  const entry = { name: 'NOVA PESSOA', document: '01899693343', ispb: '60746948', bankName: 'BANCO BRADESCO S.A.' }
  const added = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${encodeURIComponent('+5585999990000')}`, payload: { keyType: 'PHONE', ...entry } })
  t.equal(added.statusCode, 201)
  t.match(added.json(), { key: '+5585999990000', keyType: 'PHONE', name: 'NOVA PESSOA' })
  const replaced = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${encodeURIComponent('+5585999990000')}`, payload: { ...entry, accountStatus: 'CLOSED' } })
  t.equal(replaced.statusCode, 200)
  t.equal(replaced.json().accountStatus, 'CLOSED')
  const evp = await app.inject({ method: 'PUT', url: '/__sandbox/directory/0F1E2D3C4B5A49888777666655554444', payload: entry })
  t.equal(evp.statusCode, 201)
  t.equal(evp.json().key, '0f1e2d3c-4b5a-4988-8777-666655554444', 'stored in canonical form')

  for (const [key, body] of [
    ['11987654321', { keyType: 'PHONE', ...entry }], // no +55
    ['52998224724', { keyType: 'CPF', ...entry }], // bad check digit
    ['someone@example.com', { keyType: 'CPF', ...entry }], // wrong type
    ['someone@example.com', { ...entry, document: '12345678901' }], // invalid holder document
    ['someone@example.com', { ...entry, ispb: '123' }],
  ] as const) {
    const res = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${encodeURIComponent(key)}`, payload: body })
    t.equal(res.statusCode, 400, `${key} ${JSON.stringify(body).slice(0, 40)}`)
  }

  // A transfer to the new key now finds it, and fails on its CLOSED account.
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const res = await app.inject({
    method: 'POST',
    url: '/dict/pix',
    headers: { ...bearer(acc.token), 'x-idempotency-key': '9b2f6a0e-1c3d-4e5f-8a7b-0c1d2e3f4a5b' },
    payload: { pixKey: '+5585999990000', payment: { currency: 'BRL', amount: 5 } },
  })
  t.equal(res.statusCode, 201)
  await advance(app, 50)
  t.equal((await transaction(app, res.json().id)).errorCode, 'ACCOUNT_CLOSED')

  t.equal((await app.inject({ method: 'DELETE', url: `/__sandbox/directory/${encodeURIComponent('+5585999990000')}` })).statusCode, 204)
  t.equal((await app.inject({ method: 'DELETE', url: `/__sandbox/directory/${encodeURIComponent('+5585999990000')}` })).statusCode, 404)
  const gone = await app.inject({
    method: 'POST',
    url: '/dict/pix',
    headers: { ...bearer(acc.token), 'x-idempotency-key': '9b2f6a0e-1c3d-4e5f-8a7b-0c1d2e3f4a5c' },
    payload: { pixKey: '+5585999990000', payment: { currency: 'BRL', amount: 5 } },
  })
  t.equal(gone.statusCode, 422)
})
