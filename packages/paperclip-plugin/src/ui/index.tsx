// The UI bundle (`dist/ui/index.js`): one named export per manifest slot `exportName`.
export { IssueMemoryTab } from './issue-memory-tab';
export { MemorySettingsPage } from './memory-settings-page';
