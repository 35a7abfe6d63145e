import { defaultConfig } from '../../server/config.js'
import { catalogueOf } from '../../server/report/checks.js'
import type { GradedDialect } from '../../server/report/facts.js'
import { dialects } from '../../server/dialects/index.js'

/**
 * The integration report as the app builds it from the registry (server/dialects/index.ts): its
 * catalogue of checks, how each dialect is named, and each dialect's part with API Pix at a base path.
 */
export const checks = catalogueOf(dialects.map(d => d.report ?? {}))

export const TITLES: Readonly<Record<string, string>> = Object.fromEntries(dialects.flatMap(d => d.report ? [[d.name, d.report.title]] : []))

export function graded (apiPixBasePath = '/v2'): GradedDialect[] {
  const config = defaultConfig({ apiPixBasePath })
  return dialects.flatMap(d => d.report === undefined ? [] : [{ name: d.name, title: d.report.title, grades: (method: string, route: string) => d.report!.grades(method, route, config), ...(d.report.fields !== undefined ? { fields: d.report.fields } : {}) }])
}
