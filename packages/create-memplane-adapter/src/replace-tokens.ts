import type { ProviderNames } from './provider-names';

/** The template's package name, replaced by the scaffolded package's name. */
export const templatePackageName = '@memplane/adapter-template';

/**
 * Literal strings that contain the token but must survive as they are. `.env.example`
 * is a conventional file name and `configExample` a field of core's provider description
 * (`src/provider.ts`), not the provider's name.
 */
export const protectedLiterals: readonly string[] = ['.env.example', 'configExample'];

/** What the tokens of the template become. */
export interface TokenReplacements {
  /** The provider's spellings. */
  names: ProviderNames;
  /** The scaffolded package's name. */
  packageName: string;
}

/**
 * Replaces the template's tokens in a text:
 * - `@memplane/adapter-template` becomes the package name;
 * - `EXAMPLE` becomes CONSTANT_CASE, `Example` PascalCase;
 * - `example` directly followed by an upper-case letter starts a camelCase identifier
 *   (`exampleCapabilities`), so it becomes camelCase; anywhere else it becomes the kebab id.
 * Protected literals such as `.env.example` and `configExample` are left alone.
 */
export function replaceTokens(text: string, replacements: TokenReplacements): string {
  const { names } = replacements;
  const placeholders = protectedLiterals.map((literal, index) => ({
    literal,
    placeholder: `\u0000protected${index}\u0000`,
  }));
  let result = text.split(templatePackageName).join(replacements.packageName);
  for (const { literal, placeholder } of placeholders) result = result.split(literal).join(placeholder);
  // One pass, so a replacement that itself contains the token is never replaced again.
  result = result.replace(/EXAMPLE|Example|example/g, (token, offset: number, whole: string) => {
    if (token === 'EXAMPLE') return names.constant;
    if (token === 'Example') return names.pascal;
    return /[A-Z]/.test(whole.charAt(offset + token.length)) ? names.camel : names.kebab;
  });
  for (const { literal, placeholder } of placeholders) result = result.split(placeholder).join(literal);
  return result;
}

/** The path a template file is written to: tokens replaced and `_gitignore` restored to `.gitignore`. */
export function renameTemplatePath(relativePath: string, replacements: TokenReplacements): string {
  const segments = relativePath.split('/').map((segment) => (segment === '_gitignore' ? '.gitignore' : segment));
  return replaceTokens(segments.join('/'), replacements);
}
