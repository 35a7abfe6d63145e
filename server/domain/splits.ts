// Rules on the splits of a charge that hold whatever the gross amount is (docs/gateway.md §2.6, 8).
import { parseAmount } from './money.js'

/** Percent values are read exactly to the hundredth (40.01 is 4001 hundredths), never summed as floats. */
const HUNDREDTHS_IN_100_PERCENT = 10_000

/**
 * The sum of the PERCENTAGE splits, in hundredths of a percent, when it exceeds 100%; else null.
 * Checked on the percentages themselves: 60% and 40.01% of 10.00 round to 6.00 and 4.00, which fit
 * the amount, yet no provider splits more than the whole.
 */
export function percentageExcess (splits: ReadonlyArray<{ type: string, value: number }>): number | null {
  let total = 0
  for (const s of splits) {
    if (s.type !== 'PERCENTAGE') continue
    const v = parseAmount(s.value)
    if (!v.ok) continue // refused on its own, one message per field
    total += v.cents
  }
  return total > HUNDREDTHS_IN_100_PERCENT ? total : null
}
