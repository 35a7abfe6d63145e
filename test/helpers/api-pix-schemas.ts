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
  components: { examples: Record<string, { value: any }>, schemas: Record<string, any> }
}

/** The YAML's named examples: `examples.recBody1.value`. */
export const examples = bacenAsWritten.components.examples

/** Validators of `components`' schemas by name (`validator(components)('RecSolicitada')(body)`), every error collected. */
export function schemaValidator (components: unknown): (name: string) => (x: unknown) => boolean {
  const ajv = (addFormatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: false, allErrors: true }))
  ajv.addFormat('int32', true)
  ajv.addFormat('int64', true)
  ajv.addSchema({ $id: 'bacen', components } as object)
  return name => {
    const validate = ajv.getSchema(`bacen#/components/schemas/${name}`)
    if (!validate) throw new Error(`no schema ${name}`)
    return x => validate(x) as boolean
  }
}
