/** What both definition editors load once per league: its question groups and its sample catalog. */
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';

export type SampleCatalog = components['schemas']['SampleCatalog'];

/** A league's question groups (for the group choice of both definition editors). */
export const loadGroups = (league: string) => unwrap(() => api.GET('/api/question-groups', { params: { query: { league } } }));

const catalogs = new Map<string, Promise<SampleCatalog>>();

/** The league's sample catalog (event types with a sample event each), loaded once per league. */
export function loadSampleCatalog(league: string): Promise<SampleCatalog> {
  let found = catalogs.get(league);
  if (!found) {
    found = unwrap(() => api.GET('/api/question-definitions/sample-catalog', { params: { query: { league } } }));
    found.catch(() => catalogs.delete(league));
    catalogs.set(league, found);
  }
  return found;
}
