import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { runtimeApi, runtimeKeys } from '../../form-runtime/api/runtime-api.ts';
import { listViewApi, listViewKeys, type PersonalView, type PersonalViewConfig, type SortKey, type ViewSetting } from '../api/list-view-api.ts';
import type { ActiveTab } from '../components/view-tabs.tsx';
import { fromFilter, toFilter, type Condition } from '../../../components/filter-editor/conditions.ts';
import { ViewMode } from '@tritium/shared/constants/views';
import { modesToShow, webModeOf } from '../modes/registry.tsx';

// The list's state (docs/decisions/0017): which view or personal view is open, the user's conditions, quick search,
// sort, visible columns, row height and page; the view's data comes from POST /v1/bizdata/view/query under the form
// runtime's records key, so saving a record in the form refreshes the list.

export interface WorkState {
  conditions: Condition[];
  keyword: string;
  /** Undefined: the view's default sort. */
  sort?: SortKey[];
  /** Visible column codes; undefined: the view's columns. */
  fields?: string[];
  rowHeight?: number;
}

const EMPTY_FILTER = { type: 'And' as const, children: [] };

function workOf(personal: PersonalView | undefined): WorkState {
  const c: PersonalViewConfig = personal?.Config ?? {};
  return { conditions: fromFilter(c.filter), keyword: c.keyword ?? '', sort: c.sort, fields: personal?.Fields.length ? personal.Fields : undefined, rowHeight: c.rowHeight };
}

/**
 * `isPhone`: a list view opens as the phone's tiles (MobileGrid) there (docs/decisions/0047). `initialConditions`:
 * applied on top of the first view opened (a dashboard's drill-down into a group's records).
 */
export function useListView(schemaCode: string, isPhone = false, initialConditions?: Condition[]) {
  const queryClient = useQueryClient();
  const form = useQuery({ queryKey: runtimeKeys.form(schemaCode), queryFn: () => runtimeApi.loadForm(schemaCode), retry: false });
  const settings = useQuery({ queryKey: listViewKeys.settings(schemaCode), queryFn: () => listViewApi.settings(schemaCode), enabled: form.isSuccess });
  const personalList = useQuery({ queryKey: listViewKeys.personal(schemaCode), queryFn: () => listViewApi.personalViews(schemaCode), enabled: form.isSuccess });
  const views: ViewSetting[] = useMemo(() => settings.data?.views ?? [], [settings.data]);
  const personal = useMemo(() => personalList.data?.list ?? [], [personalList.data]);

  const [active, setActive] = useState<ActiveTab | null>(null);
  const current = active?.kind === 'personal' ? personal.find((p) => p.Id === active.id) : undefined;
  const view = views.find((v) => v.code === (active?.kind === 'view' ? active.code : current?.ViewPageId)) ?? views[0];
  const [work, setWork] = useState<WorkState>(workOf(undefined));
  const [applied, setApplied] = useState<Condition[]>([]);
  const [page, setPage] = useState<{ index: number; size: number } | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  // The mode the view is shown in: chosen in the toolbar, else the view's own (a list opens as tiles on a phone).
  const [chosenMode, setChosenMode] = useState<number | null>(null);

  const initial = useRef(initialConditions);
  const activate = useCallback((tab: ActiveTab, list: PersonalView[] = personal) => {
    const p = tab.kind === 'personal' ? list.find((x) => x.Id === tab.id) : undefined;
    const next = workOf(p);
    if (initial.current?.length) {
      next.conditions = [...initial.current, ...next.conditions];
      initial.current = undefined;
    }
    setActive(tab);
    setWork(next);
    setApplied(next.conditions);
    setPage(null);
    setSelected([]);
    setChosenMode(null);
  }, [personal]);

  // The first designed view opens first; a personal view that went away falls back to it.
  useEffect(() => {
    if (!views.length) return;
    if (!active || (active.kind === 'personal' && personalList.isSuccess && !current) || (active.kind === 'view' && !views.some((v) => v.code === active.code))) {
      activate({ kind: 'view', code: views[0].code });
    }
  }, [views, active, current, personalList.isSuccess, activate]);

  const modesOff = settings.data?.modesOff ?? [];
  const offered = view ? modesToShow(view.mode, modesOff) : [];
  const preferred = view && view.mode === ViewMode.List && isPhone && offered.includes(ViewMode.MobileGrid) ? ViewMode.MobileGrid : view?.mode;
  const shownMode = chosenMode !== null && offered.includes(chosenMode) ? chosenMode : preferred !== undefined && offered.includes(preferred) ? preferred : ViewMode.List;
  const shown = webModeOf(shownMode);
  const header = useQuery({ queryKey: listViewKeys.header(schemaCode, view?.code ?? ''), queryFn: () => listViewApi.header(schemaCode, view!.code), enabled: !!view });
  const pageNow = page ?? { index: 0, size: view?.pageSize ?? 50 };
  const filter = toFilter(applied);
  const body = {
    schemaCode,
    viewCode: view?.code,
    ...(current ? { personalViewId: current.Id } : {}),
    // Sent even when empty, so a personal view's saved condition is replaced by what the user now sees.
    filter: filter ?? EMPTY_FILTER,
    keyword: work.keyword.trim(),
    ...(work.sort?.length ? { sort: work.sort } : {}),
    pageIndex: pageNow.index,
    pageSize: pageNow.size,
    withStats: (view?.stats.length ?? 0) > 0,
  };
  const data = useQuery({
    queryKey: [...runtimeKeys.records(schemaCode), 'view', body],
    queryFn: () => listViewApi.query(body),
    // A hierarchy view (mode 6) asks its levels itself (docs/decisions/0023), a kanban or calendar its own calls.
    enabled: !!view && header.isSuccess && (shown.query === 'page' || (shown.query === 'table' && shownMode !== ViewMode.Hierarchy)),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: runtimeKeys.records(schemaCode) });
  const refreshPersonal = () => queryClient.invalidateQueries({ queryKey: listViewKeys.personal(schemaCode) });
  const refreshSettings = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: listViewKeys.settings(schemaCode) }),
    queryClient.invalidateQueries({ queryKey: ['list-view', 'header', schemaCode] }),
  ]);
  const columns = (header.data?.columns ?? []).filter((c) => !work.fields || work.fields.includes(c.code));
  const config: PersonalViewConfig = { ...(filter ? { filter } : {}), ...(work.keyword.trim() ? { keyword: work.keyword.trim() } : {}), ...(work.sort?.length ? { sort: work.sort } : {}), ...(work.rowHeight ? { rowHeight: work.rowHeight } : {}) };

  return {
    body, form, settings, personal, view, current, active, activate, header, data, columns, config,
    work, setWork, applied, apply: (c: Condition[]) => { setApplied(c); setPage(null); },
    page: pageNow, setPage, selected, setSelected, refresh, refreshPersonal, refreshSettings,
    modesOff, offered, shownMode, setShownMode: (mode: number) => { setChosenMode(mode); setPage(null); setSelected([]); },
    rowHeight: work.rowHeight ?? view?.rowHeight ?? 46,
  };
}
