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
    case 'minLength': return `must have at least ${String(p.limit)} characters`
    case 'maxLength': return `must have at most ${String(p.limit)} characters`
    case 'minItems': return `must have at least ${String(p.limit)} items`
    case 'maxItems': return `must have at most ${String(p.limit)} items`
    case 'maxProperties': return `must have at most ${String(p.limit)} keys`
    case 'minProperties': return `must have at least ${String(p.limit)} keys`
    case 'format': if (p.format === 'cpf-cnpj') return 'must be a valid CPF (11 digits) or CNPJ (14 digits)'
      return 'is malformed'
    case 'pattern': return 'is malformed'
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
    case 'minLength': return `deve ter no mínimo ${String(p.limit)} caracteres`
    case 'maxLength': return `deve ter no máximo ${String(p.limit)} caracteres`
    case 'minItems': return `deve ter no mínimo ${String(p.limit)} itens`
    case 'maxItems': return `deve ter no máximo ${String(p.limit)} itens`
    case 'maxProperties': return `deve ter no máximo ${String(p.limit)} chaves`
    case 'minProperties': return `deve ter no mínimo ${String(p.limit)} chaves`
    case 'format': if (p.format === 'cpf-cnpj') return 'deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido'
      return 'está em formato inválido'
    case 'pattern': return 'está em formato inválido'
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
