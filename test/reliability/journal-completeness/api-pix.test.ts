/**
 * The suites of API Pix and Pix Automático (charges, locations, devoluções, recurrences, recurring
 * charges and their webhooks) run again against a data file, each test ending by comparing the
 * reloaded file and journal with the live state (the reasoning is in payments.test.ts).
 */
process.env.PIX_TEST_PERSIST = '1'

await import('../../routes/api-pix-cob.test.js')
await import('../../routes/api-pix-cobv.test.js')
await import('../../routes/api-pix-lotecobv.test.js')
await import('../../routes/api-pix-loc.test.js')
await import('../../routes/api-pix-devolucao.test.js')
await import('../../routes/api-pix-webhook.test.js')
await import('../../routes/api-pix-rec.test.js')
await import('../../routes/api-pix-solicrec.test.js')
await import('../../routes/api-pix-locrec.test.js')
await import('../../routes/api-pix-cobr.test.js')
await import('../../routes/api-pix-webhookrec.test.js')
await import('../../routes/api-pix-webhookcobr.test.js')
await import('../../routes/api-pix-contract-code.test.js')
