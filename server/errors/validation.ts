import { DOCUMENT_FORMAT } from '../domain/documents.js'
import { UUID_V4_PATTERN } from '../domain/ids.js'
import { ISO_DATE_OR_DATE_TIME_PATTERN } from '../domain/instant.js'

/**
 * Turns schema-validation failures into one Portuguese message per invalid field, as the extended
 * error shape wants (`message` is an array, one entry per field).
 */
export interface SchemaIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

const typeNames: Record<string, string> = {
  string: 'texto',
  number: 'número',
  integer: 'número inteiro',
  boolean: 'booleano',
  object: 'objeto',
  array: 'lista',
  null: 'nulo',
}

export type Language = 'pt' | 'en'

/** Words of both languages, by language. */
type Said = Readonly<Record<Language, string>>

/** The character classes of the schemas' patterns, in words, by their ranges in sorted order (`a-zA-Z0-9` is `0-9A-Za-z`). */
const CLASSES: Record<string, Said> = {
  '0-9A-Za-z': { pt: 'letras e dígitos', en: 'letters and digits' },
  '0-9A-Z': { pt: 'dígitos ou letras maiúsculas', en: 'digits or capital letters' },
  '0-9': { pt: 'dígitos', en: 'digits' },
  'A-Za-z': { pt: 'letras', en: 'letters' },
}

/** The patterns that are more than a run of one character class, in words (`must` / `deve` follows the field). */
const PATTERNS: Record<string, Said> = {
  [UUID_V4_PATTERN]: { pt: 'deve ser um UUID versão 4, como 7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f', en: 'must be a version 4 UUID such as 7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f' },
  [ISO_DATE_OR_DATE_TIME_PATTERN]: { pt: 'deve ser uma data ISO 8601 (2026-03-10) ou data-hora (2026-03-10T12:00:00-03:00)', en: 'must be an ISO 8601 date (2026-03-10) or date-time (2026-03-10T12:00:00-03:00)' },
  '^(\\d{11}|\\d{14})$': { pt: 'deve ter 11 dígitos (CPF) ou 14 dígitos (CNPJ)', en: 'must be 11 digits (CPF) or 14 digits (CNPJ)' },
  '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$': { pt: 'deve ser um CPF (11 dígitos) ou CNPJ (12 dígitos ou letras maiúsculas e 2 dígitos)', en: 'must be a CPF (11 digits) or a CNPJ (12 digits or capital letters, then 2 digits)' },
  '^\\d{1,10}\\.\\d{2}$': { pt: 'deve ser um valor com 2 casas decimais e até 10 dígitos antes do ponto, como 10.00', en: 'must be an amount with 2 decimal places and up to 10 digits before the point, such as 10.00' },
  '^(\\d{11}|[0-9A-Z]{14})$': { pt: 'deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos ou letras maiúsculas)', en: 'must be a CPF (11 digits) or a CNPJ (14 digits or capital letters)' },
  '^000201': { pt: 'deve começar com 000201, como todo BR Code', en: 'must start with 000201, as every BR Code does' },
  '^[1-5]([0-9]{2}|xx|XX)$': { pt: 'deve ser um status, como 201, ou uma classe, como 4xx', en: 'must be a status such as 201 or a class such as 4xx' },
}

/**
 * What a pattern asks for, in words: a run of one character class (`^[a-zA-Z0-9]{26,35}$`: "26 to 35
 * letters and digits"), one of the patterns above, or else the pattern itself, so a message always
 * states the rule it checks.
 */
function patternRule (pattern: string, language: Language): string {
  const known = PATTERNS[pattern]
  if (known !== undefined) return known[language]
  const run = /^\^(?:\[([^\]]+)\]|\\d)\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern)
  const words = run === null ? undefined : CLASSES[run[1] === undefined ? '0-9' : (run[1].match(/.-./g) ?? []).sort().join('')]
  if (run !== null && words !== undefined) {
    const [, , min, max] = run
    const count = max === undefined ? min : language === 'pt' ? `de ${min} a ${max}` : `${min} to ${max}`
    return language === 'pt' ? `deve ter ${count} ${words.pt}` : `must be ${count} ${words.en}`
  }
  return language === 'pt' ? `deve seguir o padrão ${pattern}` : `must match the pattern ${pattern}`
}

/** The formats of the schemas, in words. */
const FORMATS: Record<string, Said> = {
  'date-time': { pt: 'deve ser uma data-hora RFC 3339 com fuso, como 2026-03-10T12:00:00Z ou 2026-03-10T09:00:00-03:00', en: 'must be an RFC 3339 date-time with its offset, such as 2026-03-10T12:00:00Z or 2026-03-10T09:00:00-03:00' },
  date: { pt: 'deve ser uma data AAAA-MM-DD que exista, como 2026-03-10', en: 'must be a date YYYY-MM-DD that exists, such as 2026-03-10' },
  uuid: { pt: 'deve ser um UUID, como 7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f', en: 'must be a UUID such as 7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f' },
  [DOCUMENT_FORMAT]: { pt: 'deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido', en: 'must be a valid CPF (11 digits) or CNPJ (14 digits)' },
}

function formatRule (format: string, language: Language): string {
  return FORMATS[format]?.[language] ?? (language === 'pt' ? `deve estar no formato ${format}` : `must be in the format ${format}`)
}

/** "1 caractere", "2 caracteres": the count and its noun, in the language. */
function counted (n: unknown, [one, many]: readonly [string, string]): string {
  return `${String(n)} ${n === 1 ? one : many}`
}

function fieldName (issue: SchemaIssue, part: string, language: Language = 'pt'): string {
  const path = issue.instancePath.split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') path.push(issue.params.missingProperty)
  const name = path.map((seg, i) => /^\d+$/.test(seg) ? `[${seg}]` : (i === 0 ? seg : `.${seg}`)).join('')
  if (name) return name
  if (language === 'en') return part === 'querystring' ? 'query' : part
  return part === 'body' ? 'corpo' : part === 'querystring' ? 'parâmetros' : part === 'headers' ? 'cabeçalhos' : part
}

/** The control plane's English (`/__sandbox/*`): the same rules, the words of its docs. */
function describeInEnglish (issue: SchemaIssue): string {
  const p = issue.params
  switch (issue.keyword) {
    case 'required': return 'is required'
    case 'type': return `must be of type ${String(p.type).split(',').join(' or ')}`
    case 'minimum': return `must be at least ${String(p.limit)}`
    case 'exclusiveMinimum': return `must be greater than ${String(p.limit)}`
    case 'maximum': return `must be at most ${String(p.limit)}`
    case 'exclusiveMaximum': return `must be less than ${String(p.limit)}`
    case 'minLength': return `must have at least ${counted(p.limit, ['character', 'characters'])}`
    case 'maxLength': return `must have at most ${counted(p.limit, ['character', 'characters'])}`
    case 'minItems': return `must have at least ${counted(p.limit, ['item', 'items'])}`
    case 'maxItems': return `must have at most ${counted(p.limit, ['item', 'items'])}`
    case 'maxProperties': return `must have at most ${counted(p.limit, ['key', 'keys'])}`
    case 'minProperties': return `must have at least ${counted(p.limit, ['key', 'keys'])}`
    case 'format': return formatRule(String(p.format), 'en')
    case 'pattern': return patternRule(String(p.pattern), 'en')
    case 'enum': return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`
    case 'const': return `must be ${String(p.allowedValue)}`
    case 'anyOf':
    case 'oneOf': return 'matches none of the accepted shapes'
    case 'multipleOf': return 'must have at most 2 decimal places'
    case 'additionalProperties': return `does not take the field ${String(p.additionalProperty)}`
    default: return issue.message ? `is invalid (${issue.message})` : 'is invalid'
  }
}

function describe (issue: SchemaIssue): string {
  const p = issue.params
  switch (issue.keyword) {
    case 'required': return 'é obrigatório'
    case 'type': return `deve ser do tipo ${String(p.type).split(',').map(t => typeNames[t] ?? t).join(' ou ')}`
    case 'minimum': return `deve ser maior ou igual a ${String(p.limit)}`
    case 'exclusiveMinimum': return `deve ser maior que ${String(p.limit)}`
    case 'maximum': return `deve ser menor ou igual a ${String(p.limit)}`
    case 'exclusiveMaximum': return `deve ser menor que ${String(p.limit)}`
    case 'minLength': return `deve ter no mínimo ${counted(p.limit, ['caractere', 'caracteres'])}`
    case 'maxLength': return `deve ter no máximo ${counted(p.limit, ['caractere', 'caracteres'])}`
    case 'minItems': return `deve ter no mínimo ${counted(p.limit, ['item', 'itens'])}`
    case 'maxItems': return `deve ter no máximo ${counted(p.limit, ['item', 'itens'])}`
    case 'maxProperties': return `deve ter no máximo ${counted(p.limit, ['chave', 'chaves'])}`
    case 'minProperties': return `deve ter no mínimo ${counted(p.limit, ['chave', 'chaves'])}`
    case 'format': return formatRule(String(p.format), 'pt')
    case 'pattern': return patternRule(String(p.pattern), 'pt')
    case 'enum': return `deve ser um de: ${(p.allowedValues as unknown[]).join(', ')}`
    case 'const': return `deve ser ${String(p.allowedValue)}`
    case 'anyOf':
    case 'oneOf': return 'não corresponde a nenhum formato aceito'
    case 'multipleOf': return 'deve ter no máximo 2 casas decimais'
    case 'additionalProperties': return `não aceita o campo ${String(p.additionalProperty)}`
    default: return issue.message ? `é inválido (${issue.message})` : 'é inválido'
  }
}

/** One message per invalid field, with the field it is about (the part's name when the whole part is). */
export function validationIssues (issues: SchemaIssue[], part: string, language: Language = 'pt'): Array<{ field: string, message: string }> {
  const seen = new Set<string>()
  const out: Array<{ field: string, message: string }> = []
  // A union yields one issue per branch; literal unions read better as one enum-like message.
  for (const issue of issues) {
    const field = fieldName(issue, part, language)
    if (seen.has(field)) continue
    seen.add(field)
    out.push({ field, message: `${field} ${language === 'en' ? describeInEnglish(issue) : describe(issue)}` })
  }
  return out
}

export function validationMessages (issues: SchemaIssue[], part: string, language: Language = 'pt'): string[] {
  return validationIssues(issues, part, language).map(i => i.message)
}
