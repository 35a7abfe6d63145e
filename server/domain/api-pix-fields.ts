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
 * - `schemaViolation('objeto' | 'campo', propriedade, rule, value?)`: the YAML's generic wording, "O objeto
 *   X não respeita o _schema_" / "O campo X não respeita o _schema_", and the rule it checks (`RULE`),
 *   with the value shown for a field.
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

/**
 * "O campo X não respeita o _schema_: <rule>.", as API Pix's violation lists word it, then what the
 * schema asks (`RULE`), so a client reads what to send instead.
 */
export function schemaViolation (kind: 'objeto' | 'campo', propriedade: string, rule: string, value?: unknown): Violacao {
  return { razao: `O ${kind} ${propriedade} não respeita o _schema_: ${rule}.`, propriedade, ...(kind === 'campo' ? shown(value) : {}) }
}

/** What the YAML's schemas ask of a member, in the words a violation gives after "não respeita o _schema_:". */
export const RULE = {
  object: 'deve ser um objeto JSON',
  decimal: 'deve ser um valor com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00"',
  positiveDecimal: 'deve ser um valor maior que zero, com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00"',
  date: 'deve ser uma data AAAA-MM-DD que exista, como "2026-03-10"',
  boolean: 'deve ser true ou false',
  recId: 'deve ser um idRec, 29 letras e dígitos',
  locId: 'deve ser o id de uma location, um número inteiro positivo',
  text: (max: number): string => `deve ser um texto de até ${max} caracteres`,
  oneOf: (values: readonly string[]): string => values.length === 1 ? `só aceita ${values[0]}` : `deve ser um de: ${values.join(', ')}`,
} as const

/** A string within the YAML's `maxLength` (characters as JavaScript counts them: UTF-16 units). */
export function textUpTo (value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength
}
