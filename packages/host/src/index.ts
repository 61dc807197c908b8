export { openMemplaneHost, type MemplaneHost, type MemplaneHostOptions } from './open-memplane-host';
export {
  dataFolderSqliteFileName,
  openDataFolderService,
  type DataFolderServiceOptions,
  type MemplaneHostServiceSettings,
} from './data-folder/open-data-folder-service';
export type { MemplaneHostLog, MemplaneHostWarning } from './host-warning';

export { hostConfigSchema, providerPackageNameSchema, type HostConfig, type HostConfigInput } from './config/host-config-schema';
export { parseHostConfig, readHostConfig } from './config/read-host-config';

export { createMemplaneTokenStore, importedTokenPrefixes, tokenPrefix, type MemplaneTokenIssueOptions, type MemplaneTokenStore, type MemplaneTokenStoreSettings } from './tokens/memplane-token-store';
export { tokenGrantSchema, type AdminTokenGrant, type AgentTokenGrant, type MemplaneTokenGrant, type MemplaneTokenRole, type OperatorTokenGrant } from './tokens/token-grant';
export type { MemplaneTokenBookkeeping, MemplaneTokenRecord } from './tokens/token-row';
export type { TokenFileImport } from './tokens/import-token-files';
export { createTokenCommand, type TokenCommand, type TokenCommandOutput } from './command/token-command';

export { cursorSecretFileName, dataFolderCursorSecret, loadPostgresMemoryServiceStore } from './data-folder/data-folder-service';
export {
  applyDeclaredCompanyBindings,
  ensureDefaultMarkdownBinding,
  type DeclaredCompanyBindings,
  type DeclaredMemoryBinding,
} from './data-folder/apply-company-bindings';
export { isKnownCompany, unknownCompanyError } from './data-folder/known-company';

export { VERSION } from './version';
