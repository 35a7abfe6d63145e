/**
 * How big a parsed JSON value is, weighed without recursion and without copying it, and given up past
 * `limit` (what comes back is then only known to be over it): the journal weighs what a request
 * carried before it keeps it, whatever its size or depth.
 */
interface Costs {
  /** Added to a string's length. */
  string: number
  /** A number, boolean or null. */
  scalar: number
  /** An object or an array, before its contents. */
  container: number
  /** Each field of an object, added to its name's length. */
  field: number
  /** Each element of an array. */
  item: number
}

/** Characters of the value as JSON text (numbers counted as 8: an estimate, checked on the text itself). */
const TEXT: Costs = { string: 2, scalar: 8, container: 2, field: 4, item: 1 }
/** Bytes of heap, about: what a kept object costs beyond its characters (V8's headers, slots and tables). */
const HEAP: Costs = { string: 16, scalar: 16, container: 32, field: 48, item: 8 }

/** The values still to weigh: one array for every call (each runs to its end), not one per call. */
const pending: unknown[] = []

function weigh (value: unknown, limit: number, costs: Costs): number {
  let total = 0
  pending.push(value)
  while (pending.length > 0 && total <= limit) {
    const v = pending.pop()
    if (typeof v === 'string') total += v.length + costs.string
    else if (v === null || typeof v !== 'object') total += costs.scalar
    else if (Array.isArray(v)) {
      total += costs.container
      for (let i = 0; i < v.length && total <= limit; i++) {
        total += costs.item
        pending.push(v[i])
      }
    } else {
      total += costs.container
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue
        total += k.length + costs.field
        if (total > limit) break
        pending.push((v as Record<string, unknown>)[k])
      }
    }
  }
  pending.length = 0
  return total
}

/** About how many characters the value takes as JSON text. */
export const jsonLength = (value: unknown, limit = Infinity): number => weigh(value, limit, TEXT)

/** About how many bytes of heap the value holds. */
export const heapSize = (value: unknown, limit = Infinity): number => weigh(value, limit, HEAP)
