import type { PluginUiSlotDeclaration } from '@paperclipai/plugin-sdk';

/** The UI slots: what the host mounts, under which export of the UI bundle (`dist/ui/index.js`). */
export const memoryUiSlots = [
  {
    type: 'companySettingsPage',
    id: 'memplane-memory-settings',
    displayName: 'Memory',
    exportName: 'MemorySettingsPage',
    routePath: 'memory',
  },
  {
    type: 'detailTab',
    id: 'memplane-issue-memory',
    displayName: 'Memory',
    exportName: 'IssueMemoryTab',
    entityTypes: ['issue'],
  },
] as const satisfies readonly PluginUiSlotDeclaration[];
