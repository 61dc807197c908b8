import { z } from 'zod';

/** A provider id: kebab-case, starting with a letter, such as `acme-memory` or `mem0`. */
export const providerIdSchema = z
  .string()
  .min(2, 'must have at least 2 characters')
  .max(40, 'must have at most 40 characters')
  .regex(
    /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/,
    'must be kebab-case: lower-case letters and digits in words joined by single hyphens, starting with a letter (such as acme-memory)',
  );

/**
 * An npm package name: lower case, at most 214 characters, optionally scoped, no leading
 * dot or underscore, only URL-safe characters.
 */
export const packageNameSchema = z
  .string()
  .max(214, 'must have at most 214 characters')
  .regex(
    /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
    'must be a valid npm package name (lower case, optionally scoped, such as memplane-adapter-acme or @acme/memplane-adapter)',
  );

/** The spellings of a provider id that replace the template's `example` tokens. */
export interface ProviderNames {
  /** The id itself, for files, keys and prose: `acme-memory`. */
  kebab: string;
  /** For types and classes: `AcmeMemory`. */
  pascal: string;
  /** For values and functions that start with the id: `acmeMemory`. */
  camel: string;
  /** For environment variables and constants: `ACME_MEMORY`. */
  constant: string;
}

/** Spells a valid provider id in every case the template uses. */
export function toProviderNames(providerId: string): ProviderNames {
  const words = providerId.split('-');
  const pascal = words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join('');
  return {
    kebab: providerId,
    pascal,
    camel: `${pascal.charAt(0).toLowerCase()}${pascal.slice(1)}`,
    constant: words.map((word) => word.toUpperCase()).join('_'),
  };
}

/** The package name a scaffolded adapter gets when none is given: `memplane-adapter-<id>`. */
export function defaultPackageName(providerId: string): string {
  return `memplane-adapter-${providerId}`;
}
