/**
 * With --data, a write journals the records the store's write API touched since the previous one;
 * there is no other way to change a record (test/unit/write-path.test.ts). This file checks the API
 * itself: it runs the suites that change every kind of record again against a data file, and each
 * test ends by reloading the file and its journal and comparing them with the live state, record by
 * record (test/helpers/app.ts, PIX_TEST_PERSIST). A change the API made without journaling it (a
 * removal, a sequence, a replaced state) shows up as a difference.
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
