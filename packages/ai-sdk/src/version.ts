declare const __PACKAGE_VERSION__: string | undefined;

/** The version of @memplane/ai-sdk. */
export const VERSION: string = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-development';
