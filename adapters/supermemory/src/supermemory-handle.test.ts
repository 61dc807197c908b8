import { describe, expect, it } from 'vitest';
import { readSupermemoryHandle, readSupermemoryJobId, toSupermemoryHandle, toSupermemoryJobId } from './supermemory-handle';

describe('Supermemory handles', () => {
  it('record which id space they hold and round-trip', () => {
    const document = toSupermemoryHandle({ kind: 'document', documentId: 'Doc123' });
    const memory = toSupermemoryHandle({ kind: 'memory', memoryId: 'Mem:with:colons', recordKey: 'key_1' });
    const keyless = toSupermemoryHandle({ kind: 'memory', memoryId: 'Mem9', recordKey: undefined });
    expect(document).toEqual({ providerKey: 'supermemory', providerRecordId: 'doc:Doc123' });
    expect(memory.providerRecordId).toBe('mem:key_1:Mem:with:colons');
    expect(readSupermemoryHandle(document)).toEqual({ kind: 'document', documentId: 'Doc123' });
    expect(readSupermemoryHandle(memory)).toEqual({ kind: 'memory', memoryId: 'Mem:with:colons', recordKey: 'key_1' });
    expect(readSupermemoryHandle(keyless)).toEqual({ kind: 'memory', memoryId: 'Mem9', recordKey: undefined });
  });

  it('refuses ids of no known kind instead of guessing one', () => {
    for (const providerRecordId of ['Doc123', 'doc:', 'mem:', 'mem:key', 'mem:key:', 'memory:x']) {
      expect(readSupermemoryHandle({ providerKey: 'supermemory', providerRecordId })).toBeUndefined();
    }
  });

  it('job ids carry the document id, the submission time and a signature, and bare document ids are accepted', () => {
    const id = toSupermemoryJobId('Doc@odd', 1767225600000, 'sig');
    expect(readSupermemoryJobId(id)).toEqual({ documentId: 'Doc@odd', submittedAtMs: 1767225600000, signature: 'sig' });
    expect(readSupermemoryJobId('Doc123')).toEqual({ documentId: 'Doc123', submittedAtMs: undefined, signature: '' });
    expect(readSupermemoryJobId('Doc@notatime@sig')).toEqual({ documentId: 'Doc@notatime@sig', submittedAtMs: undefined, signature: '' });
  });
});
