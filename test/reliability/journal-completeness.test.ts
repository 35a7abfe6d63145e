/**
 * With --data, a commit appends only the records the services said they changed (Store.changed).
 * A change made in place without telling the store would be lost by a crash before the next
 * compaction, and no single test would notice. So this file runs the suites that change every kind
 * of record again against a data file, and each test ends by reloading the file and its journal and
 * comparing them with the live state, record by record (test/helpers/app.ts, PIX_TEST_PERSIST).
 */
process.env.PIX_TEST_PERSIST = '1'

await import('../routes/payouts-scenarios.test.js')
await import('../routes/payouts-qrcode.test.js')
await import('../routes/dict.test.js')
await import('../routes/cash-in.test.js')
await import('../routes/cob.test.js')
await import('../routes/pix-pay.test.js')
await import('../routes/devolucao.test.js')
await import('../routes/refund.test.js')
await import('../routes/refund-received.test.js')
await import('../routes/med.test.js')
await import('../routes/transactions.test.js')
await import('../routes/webhooks.test.js')
await import('../flows/webhooks-delivery.test.js')
await import('../flows/webhooks-faults.test.js')
