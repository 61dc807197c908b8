declare const __PACKAGE_VERSION__: string | undefined;

/** The version of `@memplane/host`, injected at build time (`0.0.0-source` when run from source). */
export const VERSION: string = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-source';
