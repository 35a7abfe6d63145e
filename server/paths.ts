import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package root (the folder with package.json), found from this file whether it runs as
 * TypeScript from server/ or compiled from dist/server/, so fixtures and dashboard assets resolve
 * the same way in a checkout, an npm install and the Docker image.
 */
function findRoot (from: string): string {
  let dir = from
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`package.json not found above ${from}`)
    dir = parent
  }
  return dir
}

export const packageRoot = findRoot(dirname(fileURLToPath(import.meta.url)))
