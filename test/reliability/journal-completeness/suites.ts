import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The suites each file of this folder runs against a data file (PIX_TEST_PERSIST, the reasoning is in
 * payments.test.ts), by part. They run there and only there in `npm test`: the groups of test/routes
 * and test/flows leave them out (`JOURNALED`), since a run against a data file asserts all that the
 * run in memory does, and the reload besides. `npx tap test/routes/x.test.ts` still runs one in memory.
 */
export const JOURNALED_SUITES = {
  'api-pix': [
    'test/routes/api-pix-cob.test.ts',
    'test/routes/api-pix-cobv.test.ts',
    'test/routes/api-pix-lotecobv.test.ts',
    'test/routes/api-pix-loc.test.ts',
    'test/routes/api-pix-devolucao.test.ts',
    'test/routes/api-pix-webhook.test.ts',
    'test/routes/api-pix-rec.test.ts',
    'test/routes/api-pix-solicrec.test.ts',
    'test/routes/api-pix-locrec.test.ts',
    'test/routes/api-pix-cobr.test.ts',
    'test/routes/api-pix-webhookrec.test.ts',
    'test/routes/api-pix-webhookcobr.test.ts',
    'test/routes/api-pix-contract-code.test.ts',
  ],
  deliveries: [
    'test/flows/webhooks-delivery.test.ts',
    'test/flows/webhooks-faults.test.ts',
  ],
  payments: [
    'test/routes/payouts-scenarios.test.ts',
    'test/routes/payouts-qrcode.test.ts',
    'test/routes/dict.test.ts',
    'test/routes/cash-in.test.ts',
    'test/routes/cob.test.ts',
    'test/routes/pix-pay.test.ts',
  ],
  refunds: [
    'test/routes/devolucao.test.ts',
    'test/routes/refund.test.ts',
    'test/routes/refund-received.test.ts',
    'test/routes/med.test.ts',
    'test/routes/transactions.test.ts',
    'test/routes/webhooks.test.ts',
  ],
} as const

/** Every suite some file of this folder runs (paths from the repository's root). */
export const JOURNALED: ReadonlySet<string> = new Set(Object.values(JOURNALED_SUITES).flat())

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** Runs a part's suites in this process against a data file each: this file's tests are theirs. */
export async function runJournaled (part: keyof typeof JOURNALED_SUITES): Promise<void> {
  process.env.PIX_TEST_PERSIST = '1'
  for (const suite of JOURNALED_SUITES[part]) await import(pathToFileURL(join(root, suite)).href)
}
