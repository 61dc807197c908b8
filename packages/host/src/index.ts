export type { MemplaneHostLog, MemplaneHostWarning } from './host-warning';

export { hostConfigSchema, providerPackageNameSchema, type HostConfig, type HostConfigInput } from './config/host-config-schema';
export { parseHostConfig, readHostConfig } from './config/read-host-config';

export { createMemplaneTokenStore, importedTokenPrefixes, tokenPrefix, type MemplaneTokenIssueOptions, type MemplaneTokenStore, type MemplaneTokenStoreSettings } from './tokens/memplane-token-store';
export { tokenGrantSchema, type AdminTokenGrant, type AgentTokenGrant, type MemplaneTokenGrant, type MemplaneTokenRole, type OperatorTokenGrant } from './tokens/token-grant';
export type { MemplaneTokenBookkeeping, MemplaneTokenRecord } from './tokens/token-row';

export { VERSION } from './version';
