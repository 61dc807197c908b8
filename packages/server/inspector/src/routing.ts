import { useEffect, useState } from 'react';

/** The pages of the inspector, in the order of the navigation. */
export const pages = [
  { id: 'bindings', title: 'Bindings' },
  { id: 'operations', title: 'Operations' },
  { id: 'records', title: 'Records' },
  { id: 'query', title: 'Query' },
  { id: 'jobs', title: 'Extraction jobs' },
  { id: 'usage', title: 'Usage and cost' },
  { id: 'settings', title: 'Settings' },
] as const;

/** One page id. */
export type PageId = (typeof pages)[number]['id'];

/** Where the inspector is: `#/{companyId}/{page}?{filters}`, so every view can be linked and reloaded. */
export interface InspectorRoute {
  companyId: string | undefined;
  page: PageId;
  params: URLSearchParams;
}

const isPage = (value: string | undefined): value is PageId => pages.some((page) => page.id === value);

/** Reads the route from a hash. */
export function parseRoute(hash: string): InspectorRoute {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const [company, page] = path.split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return '';
    }
  });
  return { companyId: company === '' ? undefined : company, page: isPage(page) ? page : 'bindings', params: new URLSearchParams(search) };
}

/** The hash of a route; empty parameters are left out. */
export function routeHash(companyId: string, page: PageId, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, value);
  const query = search.toString();
  return `#/${encodeURIComponent(companyId)}/${page}${query === '' ? '' : `?${query}`}`;
}

/** Goes to a route (a history entry, so Back works). */
export function navigate(companyId: string, page: PageId, params: Record<string, string | undefined> = {}): void {
  window.location.hash = routeHash(companyId, page, params);
}

/** The current route, following hash changes. */
export function useRoute(): InspectorRoute {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
