import type { TSchema } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { RoutesPlugin } from '../route-plugin.js'
import type { Config } from '../config.js'
import type { ErrorFamily, RouteUrl } from '../errors/families.js'
import type { Notifier } from '../events.js'
import type { Sandbox } from '../sandbox.js'
import type { CheckDefinition } from '../report/checks.js'
import type { FieldsOf } from '../report/facts.js'
import type { DeliveryType } from '../webhooks/samples.js'
import type { Endpoint } from '../../scenarios/types.js'

/**
 * A dialect: one family of routes over the sandbox's records (the gateway's, BACEN's API Pix, a PSP's
 * own), whole in its folder, server/dialects/<name>/. It exports one descriptor of this type and
 * server/dialects/index.ts lists it: the app registers its routes, answers its errors, documents its
 * operations and bends them with its scenarios, delivers its notifications and grades its requests
 * from that descriptor alone (CONTRIBUTING.md, "How to add a dialect").
 */
export interface Dialect {
  /** Its name: its folder's, and how the sandbox names it. */
  readonly name: string
  /**
   * The error families its routes answer in: each its column of the error table (a status per
   * outcome, codes of its own included) and its body shapes. Asked in the registry's order, after the
   * control plane's.
   */
  readonly families: readonly ErrorFamily[]
  /** The schemas its routes `$ref` (its error bodies): components of the OpenAPI document, added to every app. */
  readonly schemas?: readonly TSchema[]
  /** Its OpenAPI tags, in order; an operation of one of them is an operation of this dialect (its scenarios apply). */
  tags (config: Config): ReadonlyArray<{ name: string, description: string }>
  /** OpenAPI security schemes its routes name (API Pix's OAuth 2.0). */
  securitySchemes? (config: Config): Readonly<Record<string, unknown>>
  /**
   * The scenario endpoint of each of its operations, by operationId (null: it takes none): where
   * `X-Sandbox-Scenario` and the transport faults apply (scenarios/catalogue.ts). Every operation of
   * its tags needs a row.
   */
  readonly scenarioEndpoints: Readonly<Record<string, Endpoint | null>>
  /** The URL a request is routed by, where the dialect reads it otherwise (API Pix's trailing slash under its base path). */
  routingUrl? (url: string, config: Config): string
  /**
   * Registers its routes on the app (its prefixes, its body parsers and its authentication, each in a
   * plugin of its own). `routes` holds every route registered before it, with its family: a reason
   * the settings cannot be served (a base path that would take another route over) is thrown here as
   * a ConfigError.
   */
  register (app: FastifyInstance, context: DialectContext): Promise<void>
  /**
   * Its part of the control plane, registered under /__sandbox behind the control plane's admin token,
   * body parsing and error shape: its settings of an account, and the reads of its records the
   * dashboard and tools make without its credentials (Mercado Pago's notification URL and payments).
   */
  readonly controlPlane?: RoutesPlugin
  /**
   * The delivery event types its notifier makes, in order, each with a sample payload (`POST
   * /__sandbox/webhooks/test`, the report's probe) and the URLs of the account's own webhooks of it.
   */
  deliveries? (sandbox: Sandbox): Readonly<Record<string, DeliveryType>>
  /** Turns the domain's events (server/events.ts) into its webhooks and callbacks, through the one delivery machinery. */
  notifier? (sandbox: Sandbox): Notifier
  /** Its part of the integration report (server/report/): the facts it reads of its requests, and its checks. */
  readonly report?: ReportPart
}

export interface DialectContext {
  readonly config: Config
  /** Every route registered so far (it fills as routes are). */
  readonly routes: readonly RouteUrl[]
}

/** A dialect's part of the integration report (server/report/). */
export interface ReportPart {
  /** How the report and its docs name the dialect. */
  readonly title: string
  /**
   * The route of a request of the dialect as the report names it (API Pix's without its base path),
   * with how much of the path it recognises (the longest claim wins); undefined: not one of its.
   */
  grades (method: string, route: string, config: Config): { route: string, claim: number } | undefined
  /** Its own checks, graded only for an integration that made requests to it, after the checks of more than one dialect. */
  readonly checks?: readonly CheckDefinition[]
  /**
   * How the report reads its money requests, by `METHOD route` as `grades` names it: their own id, their
   * idempotency key, their amount and where their money goes (what the checks of several dialects compare).
   */
  readonly fields?: Readonly<Record<string, FieldsOf>>
}
