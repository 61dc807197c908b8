import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { setupAgentCoreTestEnvironment } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();

// The whole suite, errors.* included, over the stateful msw fake of the AgentCore REST API.
// No rule is skipped by name: the ones that do not apply skip themselves from the capability
// manifest (asyncExtraction, profile, explain), each with its reason.
describeMemoryAdapterConformance({
  name: '@memplane/agentcore over the AgentCore fake',
  createAdapter: () => environment.createAdapter(),
  createPeerAdapter: () => environment.createAdapter(),
  waitForConsistency: () => environment.fake.drainExtraction(),
  faults: environment.server.faults,
});
