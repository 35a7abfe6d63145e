import t from 'tap'
import { cashOutNotification, transferEnvelope } from '../../server/dialects/gateway/payloads/cash-out.js'
import { isNight, saoPauloTime } from '../../server/services/payouts.js'
import type { TransactionOf } from '../../server/store/state.js'

// The pure builders behind the cash_out webhooks, and the São Paulo calendar behind the limits.
// (Kept with the pay-out tests: they are what the route tests' recorded payloads come from.)

const base: TransactionOf<'CASH_OUT'> = {
  id: '0b8e2f0a-1111-4222-8333-444455556666',
  seq: 7,
  accountId: 3,
  kind: 'CASH_OUT',
  direction: 'OUT',
  status: 'ERROR',
  amountCents: 1029,
  feeCents: 50,
  externalId: 'ext-7',
  endToEndId: 'E9999900420260310150012345678901',
  pixKey: 'joao.souza@example.com',
  counterpart: { name: 'JOAO SOUZA', document: '03742693433', ispb: '00360305', bankName: 'CAIXA ECONOMICA FEDERAL', bankCode: '104', accountBranch: null, accountNumber: null },
  errorCode: 'ORDER_REJECTED',
  errorMessage: 'Pagamento rejeitado pela instituição de destino',
  data: { keyType: 'EMAIL', name: 'JOAO SOUZA', document: '03742693433' },
  createdAt: '2026-03-10T15:00:00.000Z',
  updatedAt: '2026-03-10T15:00:00.050Z',
  history: [],
}

t.test('CashOut notification of a failure carries errorCode and errorMessage; amounts are exact', async t => {
  const n = cashOutNotification(base, Date.parse('2026-03-10T15:00:00.050Z'))
  t.same(n, {
    event: 'CashOut',
    status: 'ERROR',
    transactionType: 'PIX',
    movementType: 'DEBIT',
    transactionId: base.id,
    externalId: 'ext-7',
    endToEndId: base.endToEndId,
    pixKey: base.pixKey,
    feeAmount: 0.5,
    originalAmount: 10.29,
    finalAmount: 10.79,
    processingDate: '2026-03-10T15:00:00.050Z',
    errorCode: 'ORDER_REJECTED',
    errorMessage: 'Pagamento rejeitado pela instituição de destino',
    counterpart: { name: 'JOAO SOUZA', document: '03742693433', bank: { bankISPB: '00360305', bankName: 'CAIXA ECONOMICA FEDERAL', bankCode: '104', accountBranch: null, accountNumber: null } },
    metadata: {},
  })
})

t.test('CashOut notification of a success has null error fields whatever the record held', async t => {
  const n = cashOutNotification({ ...base, status: 'CONFIRMED' }, 0)
  t.equal(n.status, 'CONFIRMED')
  t.equal(n.errorCode, null)
  t.equal(n.errorMessage, null)
})

t.test('TRANSFER envelope: amount as a 2-decimal string, masked creditor document, real endToEndId only when liquidated', async t => {
  const dict: TransactionOf<'DICT_TRANSFER'> = { ...base, kind: 'DICT_TRANSFER', status: 'COMPLETED', history: [], idempotencyKey: 'k', description: 'aluguel', data: { directoryKey: 'joao.souza@example.com', priority: 'NORM', expiration: 600, expiresAt: '2026-03-10T15:10:00.000Z', currency: 'BRL' }, counterpart: { ...base.counterpart!, document: '32732844000113' } }
  t.same(transferEnvelope(dict), {
    type: 'TRANSFER',
    data: {
      id: 7,
      txId: null,
      pixKey: base.pixKey,
      status: 'LIQUIDATED',
      payment: { amount: '10.29', currency: 'BRL' },
      endToEndId: base.endToEndId,
      creditDebitType: 'DEBIT',
      idempotencyKey: 'k',
      creditorAccount: { name: 'JOAO SOUZA', document: '**.732.844/0001-**', ispb: '00360305' },
      remittanceInformation: 'aluguel',
    },
  })
  const failed = transferEnvelope({ ...dict, status: 'ERROR', errorCode: 'PAYMENT_EXPIRED', errorMessage: 'expirou' })
  t.match(failed.data, { status: 'ERROR', endToEndId: null, errorCode: 'PAYMENT_EXPIRED', errorMessage: 'expirou' })
})

t.test('São Paulo calendar: the day turns at 03:00 UTC and the night runs 20:00 to 06:00 local', async t => {
  t.same(saoPauloTime(Date.parse('2026-03-11T02:59:59Z')), { day: '2026-03-10', hour: 23 })
  t.same(saoPauloTime(Date.parse('2026-03-11T03:00:00Z')), { day: '2026-03-11', hour: 0 })
  t.equal(isNight(Date.parse('2026-03-10T22:59:59Z')), false) // 19:59:59
  t.equal(isNight(Date.parse('2026-03-10T23:00:00Z')), true) // 20:00
  t.equal(isNight(Date.parse('2026-03-11T08:59:59Z')), true) // 05:59:59
  t.equal(isNight(Date.parse('2026-03-11T09:00:00Z')), false) // 06:00
})
