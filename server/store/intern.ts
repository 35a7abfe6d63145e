/**
 * One shared copy of strings that many records repeat. A test suite pays the same few keys, names
 * and documents again and again, and every request body parses into fresh strings: kept per record,
 * they were about a fifth of a settled pay-out's heap. The table is bounded, so a run of unique
 * values stops adding (those are simply kept as they are) instead of growing without end.
 */
const MAX_ENTRIES = 50_000
/** Longer strings are rarely repeated verbatim (descriptions, QR codes); they are kept as they are. */
const MAX_LENGTH = 140

const table = new Map<string, string>()

export function intern<T extends string | undefined> (value: T): T {
  if (value === undefined || value.length > MAX_LENGTH) return value
  const shared = table.get(value)
  if (shared !== undefined) return shared as T
  if (table.size < MAX_ENTRIES) table.set(value, value)
  return value
}
