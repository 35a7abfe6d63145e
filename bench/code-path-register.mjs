// `node --import ./bench/code-path-register.mjs bench/code-path.ts`: bench/code-path-hooks.mjs compiles the sources.
import { register } from 'node:module'

register('./code-path-hooks.mjs', import.meta.url)
