/**
 * With --data, a write journals the records the store's write API touched since the previous one;
 * there is no other way to change a record (test/unit/write-path.test.ts). The files of this folder
 * check the API itself: each runs suites that change some kinds of record again against a data file,
 * and each test ends by reloading the file and its journal and comparing them with the live state,
 * record by record (test/helpers/app.ts, PIX_TEST_PERSIST). A change the API made without journaling
 * it (a removal, a sequence, a replaced state) shows up as a difference. Split by kind of record so
 * that they run side by side: pay-outs, the directory, charges and payments.
 */
process.env.PIX_TEST_PERSIST = '1'

await import('../../routes/payouts-scenarios.test.js')
await import('../../routes/payouts-qrcode.test.js')
await import('../../routes/dict.test.js')
await import('../../routes/cash-in.test.js')
await import('../../routes/cob.test.js')
await import('../../routes/pix-pay.test.js')
