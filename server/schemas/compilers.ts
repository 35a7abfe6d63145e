import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import { Ajv, type Options as AjvOptions } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { isValidDocument, type CnpjForm } from '../domain/documents.js'
import type { TSchema } from '@sinclair/typebox'
import { DOCUMENT_FORMAT } from '../domain/documents.js'

/*
 * How the routes' schemas become validators and serializers.
 * - Each is compiled on a route's first use rather than at start: compiling the schemas of every route
 *   took half of the start-up (measured with --cpu-prof), and a sandbox in CI uses a handful of routes.
 * - Once compiled, a schema's validator or serializer serves every app of the process: a test process
 *   (or an integrator's, through startSandbox) builds hundreds of apps from the same schemas. Fastify
 *   hands each app its own copy of a route's schema, so they are found by their JSON text; the
 *   schemas are the sandbox's own, a few hundred, so the caches are bounded.
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null }

interface Validators { body: Ajv, coercing: Ajv, compiled: Map<string, Validate> }

const validatorsByCnpj = new Map<CnpjForm, Validators>()

/**
 * Request bodies are validated without type coercion (a string "10" is not the number 10, as a strict
 * gateway would answer); query strings and path parameters are text on the wire, so they are coerced.
 */
function validators (cnpj: CnpjForm): Validators {
  let v = validatorsByCnpj.get(cnpj)
  if (v !== undefined) return v
  // The schemas are the sandbox's own, fixed in code: checking them against the JSON Schema
  // meta-schema compiled that meta-schema at every start (a sixth of the start's CPU) to find nothing.
  const base: AjvOptions = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, multipleOfPrecision: 8, validateSchema: false }
  const body = addFormats(new Ajv({ ...base, coerceTypes: false }))
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }))
  for (const ajv of [body, coercing]) {
    // A CPF or CNPJ with valid check digits (schemas/common.ts Document): checked with the other fields,
    // so a bad document is one entry of the validation error (docs/gateway.md §7) rather than an answer of its own.
    // The gateway's families take the alphanumeric CNPJ only with --alphanumeric-cnpj enabled (docs/assumptions.md).
    ajv.addFormat(DOCUMENT_FORMAT, { type: 'string', validate: s => isValidDocument(s, cnpj) })
  }
  v = { body, coercing, compiled: new Map() }
  validatorsByCnpj.set(cnpj, v)
  return v
}

/**
 * The validator compiler of an app whose gateway families take the CNPJ in the given form, over the
 * schemas its routes `$ref` (each added once: the same `$id` is the same schema in every app).
 */
export function validatorCompiler (cnpj: CnpjForm, shared: readonly TSchema[]): FastifySchemaCompiler<unknown> {
  const v = validators(cnpj)
  for (const s of shared) {
    for (const ajv of [v.body, v.coercing]) if (s.$id === undefined || ajv.getSchema(s.$id) === undefined) ajv.addSchema(s)
  }
  return ({ schema, httpPart }) => {
    const coerced = httpPart !== 'body'
    let compiled: Validate | undefined
    const validate: Validate = (data) => {
      if (compiled === undefined) {
        const key = `${coerced ? 'c' : 'b'}${JSON.stringify(schema)}`
        compiled = v.compiled.get(key)
        if (compiled === undefined) {
          compiled = (coerced ? v.coercing : v.body).compile(schema as object) as unknown as Validate
          v.compiled.set(key, compiled)
        }
      }
      const ok = compiled(data)
      validate.errors = compiled.errors
      return ok
    }
    return validate
  }
}

const defaultSerializers = SerializerSelector()
type RouteSerializer = Parameters<ReturnType<typeof defaultSerializers>>[0]
const serializers = new Map<string, (data: unknown) => string>()

/**
 * The serializer factory of every app. The shared schemas an app adds are the same wherever their
 * `$id` is (its dialects' error bodies), so a serializer depends on nothing but the answer schema.
 */
export function buildSerializer (...args: Parameters<typeof defaultSerializers>) {
  const compile = defaultSerializers(...args)
  return (route: RouteSerializer) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => {
      if (serialize === undefined) {
        const key = JSON.stringify(route.schema)
        serialize = serializers.get(key)
        if (serialize === undefined) {
          serialize = compile(route) as (data: unknown) => string
          serializers.set(key, serialize)
        }
      }
      return serialize(data)
    }
  }
}
