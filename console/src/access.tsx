import { createContext, useCallback, useContext } from 'react';
import { api, listAll, type TeamView } from './api/client';
import { may, type Me } from './sso';

/**
 * The caller (GET /admin/v1/me) for the pages: which write actions to show. Null when /me did not
 * answer (e.g. an older service): then every action shows, as before roles, and the API still
 * refuses what the caller may not do.
 */
export const MeContext = createContext<Me | null>(null);

export function useMe(): Me | null {
  return useContext(MeContext);
}

/** Whether to offer `METHOD /admin/v1<path>` (a template, e.g. /groups/{id}); true when /me is unknown. */
export function mayOffer(me: Me | null, method: string, path: string): boolean {
  return me === null || may(me, method, path);
}

/** {@link mayOffer} for the signed-in caller. */
export function useMay(): (method: string, path: string) => boolean {
  const me = useMe();
  return useCallback((method: string, path: string) => mayOffer(me, method, path), [me]);
}

/**
 * The teams the caller may read: every team for the pool's roles (GET /teams), the caller's own
 * team for a team role (GET /teams/{id}), none otherwise — never a request the role is refused.
 */
export async function readableTeams(me: Me | null): Promise<TeamView[]> {
  if (mayOffer(me, 'GET', '/teams')) return listAll<TeamView>('/teams?limit=500');
  if (me?.team_id && may(me, 'GET', '/teams/{id}')) return [await api<TeamView>('GET', `/teams/${encodeURIComponent(me.team_id)}`)];
  return [];
}

/** `load` when the role reaches `GET /admin/v1<path>`, else `fallback` without a request. */
export function ifReadable<T>(me: Me | null, path: string, load: () => Promise<T>, fallback: T): Promise<T> {
  return mayOffer(me, 'GET', path) ? load() : Promise.resolve(fallback);
}
