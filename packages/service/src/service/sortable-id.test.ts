import { describe, expect, it } from 'vitest';
import { createSortableIdFactory } from './sortable-id';

describe('sortable ids', () => {
  it('sort by creation, within a millisecond and when the clock steps back, and stay unique', () => {
    const clock = [1000, 1000, 1000, 999, 2000];
    const createId = createSortableIdFactory(() => clock.shift() ?? 3000);
    const ids = Array.from({ length: 6 }, () => createId('op'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(6);
    expect(ids[0]).toMatch(/^op_[0-9a-z]{13}[0-9a-f]{12}$/);
    const other = createSortableIdFactory(() => 1000);
    expect(other('op')).not.toBe(ids[0]);
  });
});
