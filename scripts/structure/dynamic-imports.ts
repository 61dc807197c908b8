import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A dynamic `import()` whose specifier is known before it runs. */
export interface DynamicImport {
  /** The module specifier, such as `@memplane/service-postgres` or `@memplane/markdown/provider`. */
  specifier: string;
  /** The file, relative to the root given to {@link dynamicImportsUnder}. */
  file: string;
}

const sourceFile = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
/** Tests are not shipped, so what they import makes no package cycle. */
const testFile = /\.(?:test|spec)\.[cm]?[jt]sx?$|\.d\.[cm]?ts$/;

/**
 * The specifiers of the dynamic imports of one source text whose argument is a string literal
 * (`import('@memplane/x')`) or an identifier naming a string constant of the same file
 * (`const specifier = '@memplane/x'; await import(specifier)`), the way a package hides an
 * optional dependency from bundlers. A computed specifier (a parameter, a template) is not known
 * here and is left out.
 */
export function dynamicImportSpecifiers(fileName: string, text: string): string[] {
  if (!/\bimport\s*\(/.test(text)) return []; // most files: no need to parse them
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const constants = new Map<string, string>();
  const calls: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Const) !== 0) {
      for (const declaration of node.declarations) {
        const value = declaration.initializer === undefined ? undefined : stringValue(declaration.initializer);
        if (ts.isIdentifier(declaration.name) && value !== undefined) constants.set(declaration.name.text, value);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined) {
      calls.push(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls.flatMap((argument) => {
    const value = ts.isIdentifier(argument) ? constants.get(argument.text) : stringValue(argument);
    return value === undefined ? [] : [value];
  });
}

/** The text of a string literal (or a template without substitutions), seen through `as` and parentheses. */
function stringValue(expression: ts.Expression): string | undefined {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) {
    return stringValue(expression.expression);
  }
  return undefined;
}

/** Every dynamic import of known specifier in the source files under `folder` (tests left out). */
export function dynamicImportsUnder(root: string, folder: string): DynamicImport[] {
  let entries: string[];
  try {
    entries = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => sourceFile.test(entry) && !testFile.test(entry) && !entry.split(/[\\/]/).includes('node_modules'))
    .sort()
    .flatMap((entry) => {
      const path = join(root, folder, entry);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return []; // a folder whose name looks like a source file
      }
      return dynamicImportSpecifiers(path, text).map((specifier) => ({ specifier, file: relative(root, path) }));
    });
}
