// `import t from 'tap'` in a test file that test/loader/group.ts runs: the subtest the group opened
// for that file (test/loader/hooks.mjs resolves 'tap' here for it), and the rest of tap as it is.
export * from 'tap'

const file = new URL(import.meta.url).searchParams.get('file')
export default globalThis[Symbol.for('pix-sandbox.tap-group')].get(file)
