import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'

/**
 * BACEN's API Pix 2.9.0 (the reference the central-bank family follows, and the API Pix dialect serves),
 * loaded as JSON schemas for validating the sandbox's answers. The reference has defects of its own that a validator takes
 * literally; each is corrected here, and listed in CORRECTIONS, which the test checks against what
 * this loader really changed. The corrections of the request schemas, where API Pix's own request
 * examples disagree with them, are REQUEST_CORRECTIONS (test/helpers/api-pix-schemas.ts).
 */
/** A copy of BACEN's file (Apache 2.0), unchanged: the corrections below are applied in memory. */
export const BACEN_YAML = new URL('../reference/bacen-pix-api-2.9.0.yaml', import.meta.url)

type Json = Record<string, unknown>
export interface BacenDoc { paths: Record<string, Record<string, Json>>, components: { schemas: Record<string, Json> } }

/**
 * The reference's known defects, corrected before validating (one line each, JSON pointer first):
 * - CPF patterns are written `/^\d{11}$/`, with JavaScript slashes: as a JSON Schema pattern that
 *   demands literal slashes around the digits, so no CPF matches. Corrected to `^\d{11}$`.
 * - Patterns without anchors (`[a-zA-Z0-9]{26,35}`, `\d{1,10}\.\d{2}`...) match any string that
 *   merely contains such a run. Anchored as `^(?:...)$`.
 * - Pix.txid (and ParametrosConsultaPix.txid) is `allOf` TxId (26 to 35) and `[a-zA-Z0-9]{1,35}`:
 *   once anchored, the two contradict for txids of 1 to 25 characters, which the override means to
 *   allow. Corrected to the override alone.
 * - PixConsultados requires `cobs`, a property it does not have, instead of `pix`.
 * - CobsConsultadas (and CobsVConsultadas) require `idCob` of each cob, a property no schema of the
 *   API defines. Dropped.
 * - PayloadLocation.location, CobGerada.location and PayloadLocationCompleta.location are `format: uri`,
 *   yet BACEN's locations carry no scheme (its own example is `pix.example.com/qr/v2/...`), which `uri`
 *   refuses. Dropped.
 * - CobBase.infoAdicionais says `maximum: 50` for an array, a keyword of numbers. Read as `maxItems`.
 * - WebhookCompleto (GET /webhook/{chave}, GET /webhook) requires `cnpj`, described as a filter by the
 *   debtor's CNPJ, where its own example (webhookResponse1) and the operation show the webhook's
 *   `chave`. Corrected to `chave` (a key of at most 77 characters), required.
 * - CobVValor.desconto is `oneOf` a list of dated discounts (modalidades 1 and 2) and one `valorPerc`
 *   (3 to 6), but the first branch requires nothing: a desconto of modalidade 3 to 6 matches both, so
 *   `oneOf` refuses every one of them. The first branch requires descontoDataFixa.
 * - DadosRecebedor requires logradouro, cidade, uf and cep of the object it is mixed into (a CobVGerada,
 *   a CobVPayload), where they are the `recebedor`'s, which requires them itself. Dropped at the top.
 * - CobVGerada requires `location` (CobGerada does not), yet a cobv unbound from its location
 *   (DELETE /loc/{id}/txid) has none, as GET /cobv's own filter `locationPresente=false` finds them.
 *   Dropped from its required list.
 * - Pix Automático (where the schema and API Pix's own examples disagree, the examples win):
 *   RecBase requires `retentativa`, no property of it (RecConfiguracao's `politicaRetentativa` is
 *   the one); SolicRecBase requires `pagador`, a property it never defines (solicRecBody1 has none);
 *   SolicRecCompleta requires `rec`, where every example has `recPayload`; DadosPagadorRec requires
 *   `ispbParticipante` beside `pagador` instead of inside it (recResponse3); PayloadLocationRecGerada
 *   requires `tipo`, no property of it, and its location is `format: uri` without a scheme as the
 *   cob's; RecNotification requires `atualizacao"`, a stray quote in the name; RecEncerramento's
 *   `oneOf` (rejeicao, cancelamento) requires neither member, so any encerramento matches both
 *   branches: each branch requires its own. Each corrected.
 * - DadosComplementaresPessoa.cep has maxLength 8, yet API Pix's own request example cobRBody1 sends
 *   "89256-140", with its hyphen (9 characters), which a recurring charge echoes. Read as 9.
 * - CobRAtualizacao.encerramento is `oneOf` a cancelamento and a rejeicao, neither required: a closing
 *   with either matches both branches, which `oneOf` refuses. Each branch requires its property.
 * - PixAutomatico.valor is a string (`\d{1,10}\.\d{2}`) that must also match `anyOf` five objects
 *   (the components of a value, PixValorOriginal...): no string does. The `anyOf` is dropped.
 */
export const CORRECTIONS = [
  'CPF pattern /^\\d{11}$/ -> ^\\d{11}$',
  'unanchored patterns anchored',
  'Pix.txid: the 1-35 override alone',
  'ParametrosConsultaPix.txid: the 1-35 override alone',
  'PixConsultados.required: cobs -> pix',
  'CobsConsultadas.items.required: idCob dropped',
  'CobsVConsultadas.items.required: idCob dropped',
  'PayloadLocation.location: format uri dropped',
  'CobGerada.location: format uri dropped',
  'CobBase.infoAdicionais: maximum -> maxItems',
  'PayloadLocationCompleta.location: format uri dropped',
  'WebhookCompleto: cnpj -> chave',
  'CobVValor.desconto oneOf: the first branch must require descontoDataFixa',
  'DadosRecebedor.required: dropped (recebedor requires its own address)',
  'CobVGerada.required: location dropped (a cobv unbound from its location)',
  'RecBase.required: retentativa dropped',
  'SolicRecBase.required: pagador dropped',
  'SolicRecCompleta.required: rec dropped',
  'DadosPagadorRec.required: ispbParticipante moved into pagador',
  'PayloadLocationRecGerada.required: tipo dropped',
  'PayloadLocationRecGerada.location: format uri dropped',
  'RecNotification.required: atualizacao" -> atualizacao',
  'RecEncerramento.encerramento.oneOf: each branch requires its member',
  'DadosComplementaresPessoa.cep: maxLength 8 -> 9',
  'CobRAtualizacao.encerramento: each oneOf branch requires its property',
  'PixAutomatico.valor: anyOf of objects dropped',
] as const

/**
 * Where the gateway's own interface departs from BACEN, so the gateway follows the gateway (the
 * source of truth) and the validator is relaxed there, and only there (never for the API Pix dialect,
 * `loadBacen({ dialect: 'api-pix' })`, which serves BACEN's own 77-character locations):
 * - docs/gateway.md §2.8: `location` and `loc.location` are the EMV copy-and-paste code, longer than BACEN's
 *   77-character payload URL. Their maxLength is not applied.
 */
export const GATEWAY_DEPARTURES = ['PayloadLocation.location: maxLength 77 not applied (gateway 2.8)', 'CobGerada.location: maxLength 77 not applied (gateway 2.8)'] as const

export interface LoadedBacen {
  doc: BacenDoc
  applied: string[]
  departures: string[]
  /** The schema of an answer BACEN defines for an operation (JSON, problem details, the JWS payload's, or null for one without a body). */
  validatorFor: (method: string, path: string, status: number) => ValidateFunction
  /** Problema, for the statuses BACEN leaves to the PSP (401, 413, 415, ...). */
  problem: ValidateFunction
  /** The JSON schema of a request body BACEN defines (components/requestBodies), e.g. a callback's `WebhookPixBody`. */
  requestBody: (name: string) => ValidateFunction
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

/** `root`: the gateway's central-bank family (GATEWAY_DEPARTURES apply); `api-pix`: the API Pix dialect (they do not). */
export function loadBacen ({ dialect = 'root' }: { dialect?: 'root' | 'api-pix' } = {}): LoadedBacen {
  const doc = parse(readFileSync(BACEN_YAML, 'utf8')) as BacenDoc
  const applied = new Set<string>()
  const departures: string[] = []
  const schemas = doc.components.schemas

  // Patterns: the CPF's slashes, then anchors, everywhere (schemas and parameters).
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(walk); return }
    if (node === null || typeof node !== 'object') return
    const o = node as Json
    if (typeof o.pattern === 'string') {
      let p = o.pattern
      if (p === '/^\\d{11}$/') { p = '^\\d{11}$'; applied.add(CORRECTIONS[0]) }
      if (!p.startsWith('^') || !p.endsWith('$')) { p = `^(?:${p})$`; applied.add(CORRECTIONS[1]) }
      o.pattern = p
    }
    Object.values(o).forEach(walk)
  }
  walk(doc)

  const txidOverride = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' }
  const props = (name: string): Json => (schemas[name] as { properties: Json }).properties
  props('Pix').txid = txidOverride
  applied.add(CORRECTIONS[2])
  props('ParametrosConsultaPix').txid = txidOverride
  applied.add(CORRECTIONS[3])
  const pixConsultados = schemas.PixConsultados as { required: string[] }
  if (pixConsultados.required.includes('cobs')) { pixConsultados.required = ['parametros', 'pix']; applied.add(CORRECTIONS[4]) }
  for (const [name, correction] of [['CobsConsultadas', CORRECTIONS[5]], ['CobsVConsultadas', CORRECTIONS[6]]] as const) {
    const items = (props(name).cobs as { items: { allOf: Array<{ required?: string[] }> } }).items
    for (const part of items.allOf) {
      if (part.required?.includes('idCob')) { part.required = part.required.filter(r => r !== 'idCob'); applied.add(correction) }
    }
  }
  const location = props('PayloadLocation').location as Json
  if (location.format === 'uri') { delete location.format; applied.add(CORRECTIONS[7]) }
  if (dialect === 'root') {
    delete location.maxLength
    departures.push(GATEWAY_DEPARTURES[0])
  }
  for (const part of (schemas.CobGerada as { allOf: Json[] }).allOf) {
    const loc = (part.properties as Json | undefined)?.location as Json | undefined
    if (loc === undefined || loc.type !== 'string') continue
    if (loc.format === 'uri') { delete loc.format; applied.add(CORRECTIONS[8]) }
    if (dialect === 'root') {
      delete loc.maxLength
      departures.push(GATEWAY_DEPARTURES[1])
    }
  }
  const completa = props('PayloadLocationCompleta').location as Json
  if (completa.format === 'uri') { delete completa.format; applied.add(CORRECTIONS[10]) }
  const info = props('CobBase').infoAdicionais as Json
  if (info.maximum !== undefined) { info.maxItems = info.maximum; delete info.maximum; applied.add(CORRECTIONS[9]) }
  const webhook = schemas.WebhookCompleto as { required: string[], properties: Json }
  if (webhook.required.includes('cnpj')) {
    webhook.required = webhook.required.map(r => r === 'cnpj' ? 'chave' : r)
    delete webhook.properties.cnpj
    webhook.properties.chave = { type: 'string', maxLength: 77 }
    applied.add(CORRECTIONS[11])
  }
  const dated = (props('CobVValor').desconto as { oneOf: Array<{ required?: string[], properties: Json }> }).oneOf[0]
  if (dated.required === undefined && 'descontoDataFixa' in dated.properties) { dated.required = ['descontoDataFixa']; applied.add(CORRECTIONS[12]) }
  const recebedor = schemas.DadosRecebedor as { required?: string[] }
  if (recebedor.required !== undefined) { delete recebedor.required; applied.add(CORRECTIONS[13]) }
  const gerada = schemas.CobVGerada as { required: string[] }
  if (gerada.required.includes('location')) { gerada.required = gerada.required.filter(r => r !== 'location'); applied.add(CORRECTIONS[14]) }

  const cep = props('DadosComplementaresPessoa').cep as Json
  if (cep.maxLength === 8) { cep.maxLength = 9; applied.add(CORRECTIONS[23]) }
  const encerramento = props('CobRAtualizacao').encerramento as { oneOf: Array<{ properties: Json, required?: string[] }> }
  for (const branch of encerramento.oneOf) {
    if (branch.required === undefined) { branch.required = Object.keys(branch.properties); applied.add(CORRECTIONS[24]) }
  }
  const pixValor = props('PixAutomatico').valor as Json
  if (pixValor.anyOf !== undefined) { delete pixValor.anyOf; applied.add(CORRECTIONS[25]) }

  pixAutomaticoCorrections(schemas, applied)

  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }))
  ajv.addFormat('int32', true)
  ajv.addFormat('int64', true)
  ajv.addSchema({ $id: 'bacen', components: doc.components } as object)
  type Response = { $ref?: string, content?: Record<string, { schema: { $ref?: string } }> }
  const responses = (doc.components as unknown as { responses: Record<string, Response> }).responses
  const validatorFor = (method: string, path: string, status: number): ValidateFunction => {
    const op = doc.paths[path]?.[method.toLowerCase()] as { responses: Record<string, Response> } | undefined
    let response = op?.responses[String(status)]
    if (response?.$ref !== undefined) response = responses[response.$ref.slice('#/components/responses/'.length)]
    const content = response?.content
    // An answer BACEN declares without a body (202 of PUT /lotecobv/{id}): none, read as null.
    if (response !== undefined && content === undefined) return ajv.compile({ type: 'null' })
    const schema = (content?.['application/json'] ?? content?.['application/problem+json'] ?? content?.['application/jose'])?.schema
    if (schema === undefined) throw new Error(`BACEN 2.9.0 has no answer ${status} for ${method} ${path}`)
    // An answer's schema written in place (POST /cobr/{txid}/retentativa/{data}'s allOf): its references are the document's.
    if (schema.$ref === undefined) return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"bacen#/components/')) as object)
    const ref = schema.$ref
    const validate = ajv.getSchema(`bacen${ref}`)
    if (!validate) throw new Error(`no schema ${ref}`)
    return validate
  }
  const requestBody = (name: string): ValidateFunction => {
    const validate = ajv.getSchema(`bacen#/components/requestBodies/${name}/content/application~1json/schema`)
    if (!validate) throw new Error(`BACEN 2.9.0 has no request body ${name}`)
    return validate
  }
  return { doc, applied: [...applied], departures, validatorFor, problem: ajv.getSchema('bacen#/components/schemas/Problema')!, requestBody }
}

/** The corrections of Pix Automático's schemas (CORRECTIONS, from 'RecBase.required'). */
function pixAutomaticoCorrections (schemas: Record<string, Json>, applied: Set<string>): void {
  const drop = (name: string, member: string, correction: string) => {
    const schema = schemas[name] as { required?: string[] }
    if (schema.required?.includes(member)) { schema.required = schema.required.filter(r => r !== member); applied.add(correction) }
  }
  drop('RecBase', 'retentativa', 'RecBase.required: retentativa dropped')
  drop('SolicRecBase', 'pagador', 'SolicRecBase.required: pagador dropped')
  drop('SolicRecCompleta', 'rec', 'SolicRecCompleta.required: rec dropped')
  const dadosPagador = schemas.DadosPagadorRec as { required?: string[], properties: { pagador: Json } }
  if (dadosPagador.required?.includes('ispbParticipante')) {
    delete dadosPagador.required
    dadosPagador.properties.pagador.required = ['ispbParticipante']
    applied.add('DadosPagadorRec.required: ispbParticipante moved into pagador')
  }
  drop('PayloadLocationRecGerada', 'tipo', 'PayloadLocationRecGerada.required: tipo dropped')
  const location = (schemas.PayloadLocationRecGerada as { properties: { location: Json } }).properties.location
  if (location.format === 'uri') { delete location.format; applied.add('PayloadLocationRecGerada.location: format uri dropped') }
  const notification = schemas.RecNotification as { required: string[] }
  if (notification.required.includes('atualizacao"')) {
    notification.required = notification.required.map(r => r === 'atualizacao"' ? 'atualizacao' : r)
    applied.add('RecNotification.required: atualizacao" -> atualizacao')
  }
  const branches = ((schemas.RecEncerramento as { properties: { encerramento: { oneOf: Array<{ required?: string[], properties: Json }> } } }).properties.encerramento.oneOf)
  for (const branch of branches) {
    if (branch.required === undefined) { branch.required = Object.keys(branch.properties); applied.add('RecEncerramento.encerramento.oneOf: each branch requires its member') }
  }
}
