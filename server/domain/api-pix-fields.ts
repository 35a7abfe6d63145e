/**
 * Reading the members of an API Pix 2.9.0 request body, shared by the dialect's checks (cobv.ts,
 * rec.ts, solicrec.ts, cobr.ts): the `Violacao` of a problem answer, and the small readers every
 * check needs. Pure; nothing here knows a resource.
 *
 * - `Violacao`: one entry of a problem answer's `violacoes` (API Pix's Violacao schema).
 * - `isRecord(value)`: a JSON object (not null, not an array).
 * - `shown(value)`: `{ valor }` for a scalar worth echoing in a violation, `{}` otherwise.
 * - `hundredths(value)`: a `\d{1,10}\.\d{2}` string (the YAML's decimal pattern, read as anchored)
 *   in hundredths, zero included; null for anything else.
 * - `schemaViolation('objeto' | 'campo', propriedade, value?)`: the YAML's generic wording, "O objeto
 *   X não respeita o _schema_." / "O campo X não respeita o _schema_.", with the value shown for a field.
 * - `textUpTo(value, maxLength)`: a string of at most maxLength characters (the YAML's `maxLength`).
 */

/** One entry of a problem answer's `violacoes` (API Pix's Violacao). */
export interface Violacao { razao: string, propriedade: string, valor?: string }

export function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value a violation may echo: a scalar as text; objects and arrays are not echoed. */
export function shown (value: unknown): { valor?: string } {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { valor: String(value) } : {}
}

const DECIMAL = /^(\d{1,10})\.(\d{2})$/

/** A `\d{1,10}\.\d{2}` string in hundredths (cents, or hundredths of a percent), zero included. */
export function hundredths (value: unknown): number | null {
  if (typeof value !== 'string') return null
  const m = DECIMAL.exec(value)
  return m === null ? null : Number(m[1]) * 100 + Number(m[2])
}

/** "O objeto X não respeita o _schema_." or "O campo X não respeita o _schema_.", as API Pix's violation lists write them. */
export function schemaViolation (kind: 'objeto' | 'campo', propriedade: string, value?: unknown): Violacao {
  return { razao: `O ${kind} ${propriedade} não respeita o _schema_.`, propriedade, ...(kind === 'campo' ? shown(value) : {}) }
}

/** A string within the YAML's `maxLength` (characters as JavaScript counts them: UTF-16 units). */
export function textUpTo (value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength
}
