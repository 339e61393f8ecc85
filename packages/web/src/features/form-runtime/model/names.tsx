import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DisplayContext } from '@tritium/shared/controls/index';
import { apiClient } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';

// Values hold ids (users, departments, associated records); the form shows names. The ids of one record are
// looked up together, once: users and departments by POST /v1/org/unit/batch, records by POST /v1/bizdata/byids.

export interface Names {
  units: Record<string, string>;
  objects: Record<string, string>;
}

interface NamesState extends Names {
  /** Names the person just picked (a picker knows them), so they show without asking the server. */
  learn: (kind: keyof Names, entries: { id: string; name: string }[]) => void;
  /** The lookup has not answered yet: an id without a name is still to come, not unknown. */
  isLoading?: boolean;
}

/** Shown for a name still on its way, instead of the raw id. */
export const PENDING_NAME = '…';

const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const NamesContext = createContext<NamesState>({ units: {}, objects: {}, learn: () => undefined });

export const useLearnNames = () => useContext(NamesContext).learn;

export function useDisplayContext(): DisplayContext {
  const names = useContext(NamesContext);
  return useMemo(
    // Dates show in the browser's zone, the one its date pickers enter them in.
    () => ({
      locale: currentLocale(),
      timeZone: BROWSER_TIME_ZONE,
      unitName: (id: string) => names.units[id] ?? (names.isLoading ? PENDING_NAME : undefined),
      objectName: (id: string) => names.objects[id] ?? (names.isLoading ? PENDING_NAME : undefined),
    }),
    [names],
  );
}

/** Ids to name: unit ids, and record ids per associated form. */
export interface NameRequest {
  unitIds: string[];
  objects: { schemaCode: string; ids: string[] }[];
}

async function loadNames(request: NameRequest): Promise<Names> {
  const units: Record<string, string> = {};
  const objects: Record<string, string> = {};
  const unitIds = [...new Set(request.unitIds)].slice(0, 500);
  if (unitIds.length > 0) {
    const answer = await apiClient.post<{ list: { id: string; name: string }[] }>('/v1/org/unit/batch', { ids: unitIds }, { disableBizError: true });
    for (const unit of answer.list) units[unit.id] = unit.name;
  }
  for (const { schemaCode, ids } of request.objects) {
    const unique = [...new Set(ids)].slice(0, 500);
    if (unique.length === 0) continue;
    const answer = await apiClient
      .post<{ list: { ObjectId: string; Name: string }[] }>('/v1/bizdata/byids', { schemaCode, objectIds: unique }, { disableBizError: true })
      .catch(() => ({ list: [] }));
    for (const row of answer.list) objects[row.ObjectId] = row.Name;
  }
  return { units, objects };
}

export function NamesProvider({ request, children }: { request: NameRequest; children: ReactNode }) {
  const key = JSON.stringify(request);
  const { data, isPending } = useQuery({ queryKey: ['form-runtime', 'names', key], queryFn: () => loadNames(request), staleTime: 60_000 });
  const [learned, setLearned] = useState<Names>({ units: {}, objects: {} });
  const learn = useCallback((kind: keyof Names, entries: { id: string; name: string }[]) => {
    setLearned((current) => ({ ...current, [kind]: { ...current[kind], ...Object.fromEntries(entries.map((e) => [e.id, e.name])) } }));
  }, []);
  const value = useMemo(
    () => ({ units: { ...data?.units, ...learned.units }, objects: { ...data?.objects, ...learned.objects }, learn, isLoading: isPending }),
    [data, learned, learn, isPending],
  );
  return <NamesContext.Provider value={value}>{children}</NamesContext.Provider>;
}
