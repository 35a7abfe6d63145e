/**
 * The suites of webhook deliveries and their faults run again against a data file, each test ending
 * by comparing the reloaded file and journal with the live state (the reasoning is in
 * payments.test.ts).
 */
process.env.PIX_TEST_PERSIST = '1'

await import('../../flows/webhooks-delivery.test.js')
await import('../../flows/webhooks-faults.test.js')
