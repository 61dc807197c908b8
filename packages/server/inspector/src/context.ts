import { createContext, useContext } from 'react';
import type { InspectorApi } from './api/client';
import type { InspectorSession } from './api/types';
import type { BacklinkTemplates } from './backlinks';

/** What every page needs: the API of the signed-in token, the company shown, the backlink templates. */
export interface InspectorContext {
  api: InspectorApi;
  session: InspectorSession;
  companyId: string;
  templates: BacklinkTemplates;
  /** Checks and keeps the templates; a refused one throws `BacklinkTemplateError` naming its setting, and nothing changes. */
  setTemplates: (templates: BacklinkTemplates) => void;
}

export const inspectorContext = createContext<InspectorContext | undefined>(undefined);

/** The context of the page; only pages inside the signed-in shell call it. */
export function useInspector(): InspectorContext {
  const value = useContext(inspectorContext);
  if (value === undefined) throw new TypeError('useInspector outside the signed-in shell');
  return value;
}
