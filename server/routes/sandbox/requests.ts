import type { RoutesPlugin } from '../../route-plugin.js'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import { parseInstant } from '../../domain/instant.js'
import { errorResponses } from '../../schemas/common.js'
import { ClearedRequests, ClearRequestsQuery, RequestCount, RequestEntry, RequestIdParams, RequestList, RequestListQuery, RequestMatcher, Verified, VerifyBody } from '../../schemas/journal.js'
import type { Since } from '../../journal/journal.js'
import { SANDBOX_SHAPE } from './errors.js'

/** The request journal: list, one entry, count, verify (WireMock's verify with near misses), clear. */
const requestRoutes: RoutesPlugin = async (app) => {
  const journal = app.sandbox.journal

  const sinceOf = (since: string | undefined): Since | undefined => {
    if (since === undefined) return undefined
    if (/^\d{1,15}$/.test(since)) return { id: Number(since) }
    const wallMs = parseInstant(since)
    if (wallMs === null) throw invalidRequest(`since must be an entry id or an ISO 8601 instant such as 2026-03-10T12:00:00Z (not ${JSON.stringify(since)})`)
    return { wallMs }
  }

  app.get('/requests', {
    schema: {
      operationId: 'sandboxListRequests',
      tags: ['Sandbox'],
      summary: 'The request journal: every request with its headers and bodies (credentials masked)',
      description: 'Without `since`: the newest `limit` matches, newest first. With `since` (an entry id, or an instant compared with wallTime): ' +
        'the matches strictly after it, oldest first, at most `limit`; a tail polls with the id of the last entry it saw. ' +
        '`path` may end in `*` (a prefix); `status` takes 201 or 4xx. Kept per account (--journal-size, default 1,000; the oldest go first); ' +
        'the dashboard\'s refreshes, health checks and reads of the journal are not kept.',
      querystring: RequestListQuery,
      response: { 200: RequestList, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => {
    const { since, limit, ...filter } = request.query
    return { requests: journal.list(filter, { since: sinceOf(since), limit }) }
  })

  app.get('/requests/:id', {
    schema: {
      operationId: 'sandboxGetRequest',
      tags: ['Sandbox'],
      summary: 'One journal entry',
      params: RequestIdParams,
      response: { 200: RequestEntry, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => {
    const entry = journal.get(request.params.id)
    if (!entry) throw new Refusal('REQUEST_NOT_FOUND', `Request ${request.params.id} is not in the journal (never made, cleared, or pushed out by newer ones)`)
    return entry
  })

  app.post('/requests/count', {
    schema: {
      operationId: 'sandboxCountRequests',
      tags: ['Sandbox'],
      summary: 'How many journal entries match',
      body: RequestMatcher,
      response: { 200: RequestCount, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => ({ count: journal.count(request.body) }))

  app.post('/requests/verify', {
    schema: {
      operationId: 'sandboxVerifyRequests',
      tags: ['Sandbox'],
      summary: 'Check that matching requests were made: 200 when they were, 409 with the near misses when not',
      description: 'With `times`: exactly that many; `atLeast` / `atMost` bound the count; with none of them: at least one. ' +
        'A 409 lists in details.nearMisses the entries closest to the matcher (fewest fields apart, newest first), each with the fields that differed.',
      body: VerifyBody,
      response: { 200: Verified, ...errorResponses(SANDBOX_SHAPE, [400, 409]) },
    },
  }, async (request) => {
    const { times, atLeast, atMost, ...matcher } = request.body
    const result = journal.verify(matcher, { times, atLeast, atMost })
    if (result.ok) return { count: result.count, matched: true as const }
    const wanted = times !== undefined ? `exactly ${times}` : [atLeast !== undefined ? `at least ${atLeast}` : '', atMost !== undefined ? `at most ${atMost}` : ''].filter(Boolean).join(' and ') || 'at least 1'
    throw new Refusal('VERIFICATION_FAILED', `Expected ${wanted} matching request(s), found ${result.count}`, {
      details: {
        matcher,
        expected: { times, atLeast, atMost },
        count: result.count,
        nearMisses: result.nearMisses.map(m => ({
          id: m.entry.id, method: m.entry.method, path: m.entry.path, status: m.entry.status, accountId: m.entry.accountId, at: m.entry.at, differences: m.differences,
        })),
      },
    })
  })

  app.delete('/requests', {
    schema: {
      operationId: 'sandboxClearRequests',
      tags: ['Sandbox'],
      summary: 'Empty one account\'s journal (?accountId=), or all of it',
      querystring: ClearRequestsQuery,
      response: { 200: ClearedRequests },
    },
  }, async (request) => ({ cleared: journal.clear(request.query.accountId) }))
}

export default requestRoutes
