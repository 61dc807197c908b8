import type { MemoryScope } from '@memplane/core';

/**
 * One record handle written through the service: which company, binding and scope it was
 * written for. The registry is how the service places a record a provider returns without
 * (trustworthy) scope or source, and how it refuses a handle of another company before the
 * provider sees it.
 */
export interface MemoryRegisteredRecord {
  /** The company the record was written for. */
  companyId: string;
  /** The binding it was written through. */
  bindingId: string;
  /** The binding's provider; ids are only compared within one provider. */
  providerId: string;
  /** The provider's id of the record. */
  providerRecordId: string;
  /** The scope it was written under, company included. */
  scope: MemoryScope;
  /** When it was registered. */
  registeredAt: string;
}

/** What the registry knows about some record ids of one provider, from the point of view of one company. */
export interface MemoryRecordPlacement {
  /** The ids registered for the company, with the scope they were written under. */
  own: MemoryRegisteredRecord[];
  /** The ids registered for any other company (nothing else about them is returned). */
  foreignIds: string[];
}

/** The registry of record handles written through the service (`memory_record_registry`). */
export interface MemoryRecordRegistryStore {
  /** Registers handles; a handle registered again for the same binding keeps its first scope. */
  registerRecords(entries: MemoryRegisteredRecord[]): Promise<void>;
  /**
   * Places record ids of one provider for a company: the ones registered for it, and the ones
   * registered for another company. One indexed read.
   */
  placeRecords(companyId: string, providerId: string, providerRecordIds: string[]): Promise<MemoryRecordPlacement>;
  /** Removes the registrations of forgotten records of one binding. */
  unregisterRecords(companyId: string, bindingId: string, providerRecordIds: string[]): Promise<void>;
}
