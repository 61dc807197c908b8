export {
  createNotebookAdapter,
  notebookAdapterKey,
  notebookAdapterSettingsSchema,
  notebookCapabilities,
  type NotebookAdapterSettings,
} from './notebook-adapter';
