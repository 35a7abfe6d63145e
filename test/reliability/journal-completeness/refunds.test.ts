/**
 * The suites of refunds, MED, transactions and webhook registrations run again against a data file,
 * each test ending by comparing the reloaded file and journal with the live state (the reasoning is
 * in payments.test.ts).
 */
process.env.PIX_TEST_PERSIST = '1'

await import('../../routes/devolucao.test.js')
await import('../../routes/refund.test.js')
await import('../../routes/refund-received.test.js')
await import('../../routes/med.test.js')
await import('../../routes/transactions.test.js')
await import('../../routes/webhooks.test.js')
