import { GATEWAY_ENDPOINTS, scenarioDefinitions } from './types.js'

/**
 * Transport faults (WireMock's `Fault`, Toxiproxy): the connection itself misbehaves, on any operation
 * of the gateway, the token included. They are carried out by server/faults.ts, around the route, so
 * the machinery of the operation never sees them; times are real time, not the sandbox clock, because
 * what they exercise is the client's own timers.
 */
export const LATENCY_MAX_MS = 30_000
export const TIMEOUT_MAX_MS = 60_000

/** The statuses the scenarios add to every gateway operation: 400 for a bad X-Sandbox-Scenario, 429 and 503 from the faults below. */
export const FAULT_STATUSES = [400, 429, 503]

export const transportScenarios = scenarioDefinitions([
  {
    name: 'LATENCY',
    endpoints: GATEWAY_ENDPOINTS,
    timing: 'transport',
    effect: 'The operation is performed at once and its answer leaves ms milliseconds of real time later: a client that gives up first has had its operation done all the same.',
    params: [{ name: 'ms', description: `real-time delay of the answer, 0 to ${LATENCY_MAX_MS}`, required: true, integer: { min: 0, max: LATENCY_MAX_MS } }],
  },
  {
    name: 'TIMEOUT',
    endpoints: GATEWAY_ENDPOINTS,
    timing: 'transport',
    effect: `The request is held without an answer until the client gives up, or for ms milliseconds of real time (${TIMEOUT_MAX_MS} unless given) after which the connection is closed; the operation is not performed.`,
    params: [{ name: 'ms', description: `how long the connection is held, 1 to ${TIMEOUT_MAX_MS} (default ${TIMEOUT_MAX_MS})`, required: false, integer: { min: 1, max: TIMEOUT_MAX_MS } }],
  },
  {
    name: 'CONNECTION_RESET',
    endpoints: GATEWAY_ENDPOINTS,
    timing: 'transport',
    effect: 'The connection is closed without an answer. By default before the operation (nothing is performed); with after=commit once the operation is performed and durable, so the client must query before it retries.',
    params: [{ name: 'after', description: '`commit` to reset after the operation is committed (default: before it runs)', required: false, oneOf: ['commit'] }],
  },
  {
    name: 'RATE_LIMITED',
    endpoints: GATEWAY_ENDPOINTS,
    timing: 'transport',
    effect: 'Answers 429 with Retry-After in the family\'s error shape, as the MED list\'s own rate limit does (code RATE_LIMITED, details.retryAfterSeconds); nothing is performed.',
    params: [{ name: 'retryAfter', description: 'seconds in the Retry-After header, 0 to 3600 (default 1)', required: false, integer: { min: 0, max: 3600 } }],
  },
  {
    name: 'SERVICE_UNAVAILABLE',
    endpoints: GATEWAY_ENDPOINTS,
    timing: 'transport',
    effect: 'Answers 503 in the family\'s error shape; nothing is performed.',
  },
])

export const TRANSPORT_FAULTS: ReadonlySet<string> = new Set(transportScenarios.map(s => s.name))
