import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'
import { BACEN_YAML } from './bacen.js'

/**
 * API Pix 2.9.0 as written (no correction applied), for tests that read its examples or check a
 * correction of their own against the schemas as the YAML writes them.
 */
export const bacenAsWritten = parse(readFileSync(BACEN_YAML, 'utf8')) as {
  paths: Record<string, Record<string, { requestBody?: { $ref?: string } }>>
  components: {
    examples: Record<string, { value: any }>
    schemas: Record<string, any>
    requestBodies: Record<string, { content: Record<string, { examples?: Record<string, { $ref: string }> }> }>
  }
}

/** The YAML's named examples: `examples.recBody1.value`. */
export const examples = bacenAsWritten.components.examples

/** Validators of `components`' schemas by name (`validator(components)('RecSolicitada')(body)`), every error collected. */
export function schemaValidator (components: unknown): (name: string) => (x: unknown) => boolean {
  return validatorAt(components, 'schemas/')
}

/** Validators of `components`' request bodies by name (`requestValidator(components)('RecBody')(body)`). */
export function requestValidator (components: unknown): (name: string) => (x: unknown) => boolean {
  return validatorAt(components, 'requestBodies/', '/content/application~1json/schema')
}

function validatorAt (components: unknown, under: string, within = ''): (name: string) => (x: unknown) => boolean {
  const ajv = (addFormatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: false, allErrors: true }))
  ajv.addFormat('int32', true)
  ajv.addFormat('int64', true)
  ajv.addSchema({ $id: 'bacen', components } as object)
  return name => {
    const validate = ajv.getSchema(`bacen#/components/${under}${name}${within}`)
    if (!validate) throw new Error(`no schema ${under}${name}`)
    return x => validate(x) as boolean
  }
}

type Components = typeof bacenAsWritten.components

/**
 * Where a request schema of API Pix 2.9.0 and API Pix's own request examples disagree, the example
 * wins: each correction, the examples that need it, and how it is applied to the schemas as written.
 * The sandbox accepts every example (test/routes/api-pix-request-examples.test.ts, which checks each
 * correction is needed); test/helpers/bacen.ts lists the corrections of the answers' schemas.
 */
export const REQUEST_CORRECTIONS = [
  {
    correction: 'CPF pattern /^\\d{11}$/ -> ^\\d{11}$, check digits not checked',
    examples: ['cobBody1', 'cobBody3', 'cobBody7', 'loteCobVBody1', 'recBody1', 'recBody2', 'solicRecBody1'],
    apply: (c: Components) => {
      const walk = (node: unknown): void => {
        if (node === null || typeof node !== 'object') return
        const o = node as Record<string, unknown>
        if (o.pattern === '/^\\d{11}$/') o.pattern = '^\\d{11}$'
        Object.values(o).forEach(walk)
      }
      walk(c)
    },
  },
  {
    correction: 'CobSolicitada.required: calendario dropped (expiracao 86400 when absent)',
    examples: ['cobBody6', 'cobBody8', 'cobBody9'],
    apply: (c: Components) => { c.schemas.CobSolicitada.required = c.schemas.CobSolicitada.required.filter((r: string) => r !== 'calendario') },
  },
  {
    correction: 'CobValor.retirada: oneOf of saque and troco, neither required, so both match: each branch requires its member',
    examples: ['cobBody6', 'cobBody8', 'cobBody9'],
    apply: (c: Components) => {
      for (const branch of c.schemas.CobValor.properties.retirada.oneOf) branch.required = Object.keys(branch.properties)
    },
  },
  {
    correction: 'PayloadLocationCob.required: tipoCob dropped (a request names its location by loc.id alone)',
    examples: ['cobBody1', 'cobBody3', 'cobBody7', 'loteCobVBody1'],
    apply: (c: Components) => { c.schemas.PayloadLocationCob.required = ['id'] },
  },
  {
    correction: 'CobVValor modalidade (multa, juros, abatimento, desconto): an integer, or a string of its digits',
    examples: ['cobBody1'],
    apply: (c: Components) => {
      const valor = c.schemas.CobVValor.properties
      for (const modalidade of [valor.multa.properties, valor.juros.properties, valor.abatimento.properties, valor.desconto.allOf[0].properties]) {
        modalidade.modalidade = { anyOf: [modalidade.modalidade, { type: 'string', pattern: '^[0-9]+$' }] }
      }
    },
  },
  {
    correction: 'RecBase.required: idRec dropped (the receiver\'s PSP makes the id)',
    examples: ['recBody1', 'recBody2'],
    apply: (c: Components) => { c.schemas.RecBase.required = c.schemas.RecBase.required.filter((r: string) => r !== 'idRec') },
  },
  {
    correction: 'RecBase.required: retentativa dropped (no such property; RecConfiguracao requires politicaRetentativa)',
    examples: ['recBody1', 'recBody2'],
    apply: (c: Components) => { c.schemas.RecBase.required = c.schemas.RecBase.required.filter((r: string) => r !== 'retentativa') },
  },
  {
    correction: 'RecRevisada.vinculo.devedor: oneOf of two identical { nome } schemas read as one',
    examples: ['recBody3'],
    apply: (c: Components) => {
      const vinculo = (c.schemas.RecRevisada.allOf as Array<{ properties?: Record<string, any> }>).find(p => p.properties?.vinculo !== undefined)
      const devedor = vinculo?.properties?.vinculo.properties.devedor as { oneOf?: unknown[] }
      Object.assign(devedor, devedor.oneOf?.[0])
      delete devedor.oneOf
    },
  },
  {
    correction: 'SolicRecBase.required: pagador dropped (a property it never defines)',
    examples: ['solicRecBody1'],
    apply: (c: Components) => { c.schemas.SolicRecBase.required = c.schemas.SolicRecBase.required.filter((r: string) => r !== 'pagador') },
  },
  {
    correction: 'DadosComplementaresPessoa.cep: maxLength 8 -> 9 (a CEP with its hyphen)',
    examples: ['cobRBody1'],
    apply: (c: Components) => { c.schemas.DadosComplementaresPessoa.properties.cep.maxLength = 9 },
  },
] as const

export type RequestCorrection = typeof REQUEST_CORRECTIONS[number]['correction']

/** API Pix 2.9.0's components with the request corrections named applied (all by default). */
export function correctedForRequests (applied: readonly RequestCorrection[] = REQUEST_CORRECTIONS.map(c => c.correction)): Components {
  const components = structuredClone(bacenAsWritten.components)
  for (const c of REQUEST_CORRECTIONS) if (applied.includes(c.correction)) c.apply(components)
  return components
}
