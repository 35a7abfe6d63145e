import t from 'tap'
import { parseBrCode } from '../../server/domain/brcode.js'
import { balanceOf, buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody, createCashIn, payCode, recordWebhooks } from '../helpers/payins.js'

t.test('paying a cash-in by its code credits the account, confirms the charge and emits RECEIVE', async t => {
  const app = await buildTestApp(t)
  const events = recordWebhooks(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 150.25, externalId: 'order-1' }))
  t.equal(charge.status, 'PENDING')
  const code = parseBrCode(charge.pixCode)
  t.ok(code.ok)

  const res = await payCode(app, charge.pixCode, { payer: { name: 'JOAO PAGADOR', document: '52998224725', ispb: '18236120' } })
  t.equal(res.statusCode, 201, res.body)
  const paid = res.json()
  t.equal(paid.transactionId, charge.transactionId)
  t.equal(paid.status, 'CONFIRMED')
  t.equal(paid.amount, 150.25)
  t.match(paid.endToEndId, /^E18236120202603101500[0-9A-Za-z]{11}$/)

  t.same(await balanceOf(app, acc.accountId), { available: 150.25, blocked: 0, invariantHolds: true })
  t.equal(events.length, 1)
  t.same(events[0], {
    accountId: acc.accountId,
    eventType: 'cash_in',
    transactionId: charge.transactionId,
    payload: {
      type: 'RECEIVE',
      data: {
        id: events[0].payload && (events[0].payload as { data: { id: number } }).data.id,
        txId: code.ok ? code.value.txid : null,
        status: 'LIQUIDATED',
        payment: { amount: '150.25', currency: 'BRL' },
        endToEndId: paid.endToEndId,
        debtorAccount: { name: 'JOAO PAGADOR', document: '***.982.247-**' },
        errorCode: null,
        errorMessage: null,
      },
    },
    scenarios: [],
  })
  t.type((events[0].payload as { data: { id: unknown } }).data.id, 'number')

  const again = await payCode(app, charge.pixCode)
  t.equal(again.statusCode, 422)
  t.equal(again.json().code, 'QRCODE_ALREADY_PAID')
  t.same(await balanceOf(app, acc.accountId), { available: 150.25, blocked: 0, invariantHolds: true })
})
