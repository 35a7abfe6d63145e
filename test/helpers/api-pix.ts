import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { certHeader, fixtureAccount } from './app.js'
import { loadBacen } from './bacen.js'

/**
 * Helpers of the API Pix tests (docs/api-pix.md): its OAuth token, and the check every answer of the
 * dialect goes through, against BACEN's API Pix 2.9.0 with the reference's defects corrected (and
 * none of the gateway's departures: test/helpers/bacen.ts).
 */
export const apiPixBacen = loadBacen({ dialect: 'api-pix' })

export const PROBLEM_TYPE = 'https://pix.bcb.gov.br/api/v2/error/'

/** A token of POST /oauth/token (Basic credentials, the account's certificate), with the scopes asked for. */
export async function oauthToken (app: FastifyInstance, creds: { clientId: string, clientSecret: string, certificate: string } = fixtureAccount, scope?: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
      'x-ssl-client-cert': certHeader(creds.certificate),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: `grant_type=client_credentials${scope !== undefined ? `&scope=${encodeURIComponent(scope)}` : ''}`,
  })
  if (res.statusCode !== 200) throw new Error(`oauth token failed: ${res.statusCode} ${res.body}`)
  return res.json().access_token
}

/**
 * An answer of the dialect against BACEN's schema for its operation (`bacenPath` as the reference
 * writes it, `/cob/{txid}`): a success against its JSON schema, or with no body where BACEN declares
 * none (PUT /webhook/{chave}'s 200, a 204, lotecobv's 202), an error against the problem the operation
 * declares, or Problema where BACEN leaves the status to the PSP (401, 413, 415), always as
 * application/problem+json.
 */
export function checkAnswer (t: Test, res: LightMyRequestResponse, method: string, bacenPath: string): void {
  const where = `${method} ${bacenPath} ${res.statusCode}`
  if (res.statusCode >= 400) t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', `${where}: problem details`)
  const declared = (apiPixBacen.doc.paths[bacenPath]?.[method.toLowerCase()] as { responses?: Record<string, { content?: unknown, $ref?: string }> } | undefined)?.responses?.[String(res.statusCode)]
  if (res.statusCode < 400 && declared !== undefined && declared.$ref === undefined && declared.content === undefined) {
    t.equal(res.body, '', `${where}: no body, as BACEN declares none`)
    return
  }
  let validate
  try {
    validate = apiPixBacen.validatorFor(method, bacenPath, res.statusCode)
  } catch (err) {
    if (res.statusCode < 400) throw err
    validate = apiPixBacen.problem
  }
  t.ok(validate(res.body === '' ? null : res.json()), `${where} validates: ${JSON.stringify(validate.errors ?? [])} in ${res.body.slice(0, 400)}`)
  if (res.statusCode >= 400) t.equal(res.json().status, res.statusCode, `${where}: status in the body`)
}

/** The payload of a compact JWS, decoded (its signature is checked elsewhere). */
export function jwsPart (jws: string, part: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[part], 'base64url').toString('utf8'))
}

export type ApiPixCall = (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>

/** Requests with a token, the body as JSON. */
export function apiPixClient (app: FastifyInstance, token: string): ApiPixCall {
  return (method, url, payload) => app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload: payload as object } : {}) })
}

/** An error answer expected of an operation: the pending answer, BACEN's method and path, its status and problem type. */
/**
 * The txids a charge list (`/cob` or `/cobv`, whose answers both carry `cobs`) gives for a query
 * within the window, each answer checked against BACEN's schema.
 */
export function listedTxids (t: Test, call: ApiPixCall, resource: 'cob' | 'cobv', window: string): (query: string) => Promise<string[]> {
  return async query => {
    const res = await call('GET', `/v2/${resource}?${window}${query}`)
    checkAnswer(t, res, 'GET', `/${resource}`)
    return res.json().cobs.map((c: { txid: string }) => c.txid)
  }
}

export type ExpectedProblem = [Promise<LightMyRequestResponse>, string, string, number, string]

/** Each answer has its status and its problem type (`CobOperacaoInvalida`), and validates against BACEN's. */
export async function checkProblems (t: Test, expected: readonly ExpectedProblem[]): Promise<void> {
  for (const [pending, method, path, status, type] of expected) {
    const res = await pending
    t.equal(res.statusCode, status, `${method} ${path}: ${res.body}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, `${method} ${path}: ${res.body}`)
    checkAnswer(t, res, method, path)
  }
}
