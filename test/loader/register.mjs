// `node --import=./test/loader/register.mjs x.test.ts` runs a TypeScript test file: .taprc passes it
// to every test process. The hooks run in a thread of their own (module.register).
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)
