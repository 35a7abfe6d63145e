import { Type } from '@sinclair/typebox'
import { Count, RecordId } from './common.js'

/** The request journal: `/__sandbox/requests` (server/journal). */

const Headers = Type.Record(Type.String(), Type.String(), { description: 'Names in lower case; credentials replaced by "[masked]"' })
const StatusMatch = Type.String({ pattern: '^[1-5]([0-9]{2}|xx|XX)$', description: 'A status (201) or a class (4xx)' })
const PathMatch = Type.String({ minLength: 1, maxLength: 2000, description: 'Exact path, or a prefix when it ends in *' })

export const RequestEntry = Type.Object({
  id: Type.Integer({ description: 'Increasing across the whole journal; `since` takes it' }),
  requestId: Type.String({ description: 'X-Request-Id of the answer (the caller\'s when it sent a sane one)' }),
  at: Type.String({ format: 'date-time', description: 'Sandbox time when the answer went out' }),
  wallTime: Type.String({ format: 'date-time', description: 'Wall-clock time when the answer went out' }),
  method: Type.String(),
  path: Type.String({ description: 'Without the query string' }),
  query: Type.Record(Type.String(), Type.Unknown()),
  route: Type.Union([Type.String(), Type.Null()], { description: 'The route pattern that answered (/__sandbox/transactions/:id), null when none matched' }),
  status: Type.Integer(),
  durationMs: Type.Number(),
  accountId: Type.Union([Type.Integer(), Type.Null()], { description: 'From the token, else from the body, query or path (a token request: its clientId); null when none of them names an account that exists' }),
  tokenId: Type.Union([Type.String(), Type.Null()], { description: 'The id (jti) of the bearer token used, or of the token a token request issued' }),
  idempotencyKey: Type.Union([Type.String(), Type.Null()], { description: 'X-Idempotency-Key as sent' }),
  externalId: Type.Union([Type.String(), Type.Null()], { description: 'externalId of the request body or query, else of the answer' }),
  scenarios: Type.Array(Type.String(), { description: 'Scenario names applied (X-Sandbox-Scenario-Applied)' }),
  errorCode: Type.Union([Type.String(), Type.Null()], { description: 'The error code of a failed request, whichever family\'s shape carried it' }),
  transactionId: Type.Union([Type.String(), Type.Null()], { description: 'The transaction the request created or read, when there is one' }),
  request: Type.Object({ headers: Headers, body: Type.Unknown({ description: 'The parsed JSON body, credentials masked; bodies over 64 KiB are replaced by a note of their size; null when none (or with --journal-bodies false)' }) }),
  response: Type.Object({ headers: Headers, body: Type.Unknown({ description: 'The answer as sent, credentials masked; bodies over 64 KiB are replaced by a note of their size' }) }),
})

const Filters = {
  accountId: Type.Optional(RecordId()),
  method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,10}$' })),
  path: Type.Optional(PathMatch),
  status: Type.Optional(StatusMatch),
  transactionId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  scenario: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  errorCode: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
}

export const RequestListQuery = Type.Object({
  ...Filters,
  since: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An entry id, or an ISO 8601 instant (compared with wallTime): only entries strictly after it, oldest first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 100 })),
})
export const RequestList = Type.Object({ requests: Type.Array(RequestEntry) })
export const RequestIdParams = Type.Object({ id: RecordId() })
export const ClearRequestsQuery = Type.Object({ accountId: Type.Optional(RecordId()) })
export const ClearedRequests = Type.Object({ cleared: Type.Integer({ description: 'Entries removed' }) })

const matcherFields = {
  ...Filters,
  status: Type.Optional(Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), StatusMatch])),
  bodyContains: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown(), { description: 'Request body fields (dotted paths such as details.key) and the JSON values they must equal' })),
}
export const RequestMatcher = Type.Object(matcherFields)
export const RequestCount = Type.Object({ count: Type.Integer() })

export const VerifyBody = Type.Object({
  ...matcherFields,
  times: Type.Optional(Count({ description: 'Exactly this many; with no times, atLeast or atMost: at least one' })),
  atLeast: Type.Optional(Count()),
  atMost: Type.Optional(Count()),
})
export const Verified = Type.Object({ count: Type.Integer(), matched: Type.Literal(true) })
