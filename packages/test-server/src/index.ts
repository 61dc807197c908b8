export { createTestServer, type TestServer, type TestServerSettings } from './create-test-server';
export { createFaultInjector, type FaultInjectorSettings, type TestServerFaults } from './fault-injector';
export type { HttpErrorFault, MalformedBodyStyle } from './fault-responses';
export { memoryFaultSchema } from './memory-fault-schema';
export type { RecordedCall } from './recorded-call';
