import { writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildApp } from '../server/app.js'

/**
 * Writes openapi/openapi.json from the app's own route schemas (`npm run openapi`). The app is built
 * with a fixed seed, a frozen clock and the memory store, so the output depends on the code only: two
 * runs give the same bytes, and test/routes/openapi.test.ts fails when the committed file drifts.
 */
export const openApiFile = fileURLToPath(new URL('./openapi.json', import.meta.url))

export async function openApiDocument (): Promise<Record<string, unknown>> {
  const app = await buildApp({ config: { seed: 'openapi', clock: 'frozen', clockStart: '2026-01-01T00:00:00.000Z' } })
  try {
    return app.swagger() as unknown as Record<string, unknown>
  } finally {
    await app.close()
  }
}

export const serialize = (doc: unknown): string => JSON.stringify(doc, null, 2) + '\n'

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = await openApiDocument()
  writeFileSync(openApiFile, serialize(doc))
  const paths = Object.keys((doc as { paths?: Record<string, unknown> }).paths ?? {}).length
  process.stdout.write(`wrote ${openApiFile} (${paths} paths)\n`)
}
