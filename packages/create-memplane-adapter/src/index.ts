export { findTemplateDirectory, type TemplateVariant } from './find-template-directory';
export {
  defaultPackageName,
  packageNameSchema,
  providerIdSchema,
  toProviderNames,
  type ProviderNames,
} from './provider-names';
export { renameTemplatePath, replaceTokens, templatePackageName, type TokenReplacements } from './replace-tokens';
export { runCreateMemplaneAdapter, usage, type CliEnvironment } from './run-cli';
export { VERSION } from './version';
export { scaffoldAdapter, type ScaffoldAdapterOptions, type ScaffoldAdapterResult } from './scaffold-adapter';
export { transformPackageManifest } from './transform-package-manifest';
