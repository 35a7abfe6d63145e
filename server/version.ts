import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from './paths.js'

/** The package's version, as package.json says. */
export const VERSION = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version
