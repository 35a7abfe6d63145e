// Module hooks of bench/code-path.ts (registered by bench/code-path-register.mjs): every TypeScript
// file is compiled with TypeScript's own compiler, and each function of server/ and scenarios/ gets a
// first statement that reports its entry (`globalThis.__codePath?.(file)`). Nothing else changes.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('../', import.meta.url))
const relative = /^\.{1,2}\//
const traced = /^(server|scenarios)\//

/** The sources import './x.js' for './x.ts' (TypeScript's NodeNext resolution). */
export async function resolve (specifier, context, nextResolve) {
  if (relative.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
    const ts = new URL(specifier.slice(0, -3) + '.ts', context.parentURL)
    if (existsSync(ts) && !existsSync(new URL(specifier, context.parentURL))) return nextResolve(ts.href, context)
  }
  return nextResolve(specifier, context)
}

/** Prepends the report of an entry to every function body (arrow functions with an expression body get a block). */
function entryReports (file) {
  return context => {
    const f = context.factory
    const report = () => f.createExpressionStatement(f.createCallChain(
      f.createPropertyAccessExpression(f.createIdentifier('globalThis'), '__codePath'), f.createToken(ts.SyntaxKind.QuestionDotToken), undefined, [f.createStringLiteral(file)]))
    const visit = node => {
      node = ts.visitEachChild(node, visit, context)
      if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) && node.body !== undefined) {
        const body = f.updateBlock(node.body, [report(), ...node.body.statements])
        if (ts.isFunctionDeclaration(node)) return f.updateFunctionDeclaration(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, body)
        if (ts.isFunctionExpression(node)) return f.updateFunctionExpression(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, body)
        if (ts.isMethodDeclaration(node)) return f.updateMethodDeclaration(node, node.modifiers, node.asteriskToken, node.name, node.questionToken, node.typeParameters, node.parameters, node.type, body)
        if (ts.isGetAccessorDeclaration(node)) return f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, body)
        return f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, body)
      }
      if (ts.isArrowFunction(node)) {
        const body = ts.isBlock(node.body) ? f.updateBlock(node.body, [report(), ...node.body.statements]) : f.createBlock([report(), f.createReturnStatement(node.body)], true)
        return f.updateArrowFunction(node, node.modifiers, node.typeParameters, node.parameters, node.type, node.equalsGreaterThanToken, body)
      }
      return node
    }
    return source => ts.visitNode(source, visit)
  }
}

export async function load (url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.m?ts$/.test(new URL(url).pathname)) return nextLoad(url, context)
  const file = fileURLToPath(url)
  const rel = file.startsWith(root) ? file.slice(root.length) : file
  const source = await readFile(file, 'utf8')
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, useDefineForClassFields: true },
    transformers: traced.test(rel) ? { before: [entryReports(rel)] } : undefined,
  })
  return { format: 'module', source: outputText, shortCircuit: true }
}
