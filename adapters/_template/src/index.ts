export { createExampleAdapter } from './example-adapter';
export { exampleCapabilities } from './example-capabilities';
export { ExampleApiError, ExampleClient, type ExampleClientSettings, type ExampleRequest } from './example-client';
export { exampleProviderKey } from './example-handle';
export { exampleScopeLabels } from './example-scope-mapping';
export { defaultExampleBaseURL, exampleAdapterSettingsSchema, type ExampleAdapterSettings } from './example-settings';
