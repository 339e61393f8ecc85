import { useCallback, useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrgScope } from '@tritium/shared/constants/org';
import { pickerApi, pickerKeys, type OrgItemDto, type OrgSearchBody } from './picker-api.ts';
import { readRecent, rememberPicks } from './recent-units.ts';
import type { PickedUnit, PickerCandidate, PickerKind } from './picker-types.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

export const SEARCH_DEBOUNCE_MS = 300;
// A picker shows the best matches; someone who needs more types more of the name.
export const SEARCH_PAGE_SIZE = 50;

const UNIT_TYPE: Record<PickerKind, 'User' | 'OrganizationUnit'> = { user: 'User', department: 'OrganizationUnit' };

/** A selected unit; what the field's value held carries only id and name until the person picks it again. */
export type SelectedUnit = PickedUnit & Partial<Omit<PickerCandidate, keyof PickedUnit>>;

export function candidateOf(item: OrgItemDto): PickerCandidate {
  return { id: item.id, name: item.name, isExternal: item.isExternal, parentName: item.parentName, mobile: item.mobile };
}

const inScope = (scope: OrgScope) => (unit: PickerCandidate) => scope === 'all' || unit.isExternal === (scope === 'external');

export interface OrgPickerOptions {
  kind: PickerKind;
  multiple: boolean;
  open: boolean;
  /** The field's value when the dialog opens. */
  initial: PickedUnit[];
  scope?: OrgScope;
  defaultScope?: OrgScope;
  max?: number;
}

/**
 * Everything the four pickers share: the draft selection, search (debounced, sent with the scope), the scope
 * switch and the 最近使用 list. They differ only by kind and multiplicity, which this hook takes as options.
 */
export function useOrgPicker({ kind, multiple, open, initial, scope: fixedScope, defaultScope = 'inner', max }: OrgPickerOptions) {
  const [keyword, setKeyword] = useState('');
  const [chosenScope, setScope] = useState<OrgScope>(defaultScope);
  const [selection, setSelection] = useState<SelectedUnit[]>(initial);
  const [recentAll, setRecentAll] = useState<PickerCandidate[]>([]);
  const scope = fixedScope ?? chosenScope;

  // Each opening starts from the field's value, an empty search and the stored recent list.
  useEffect(() => {
    if (!open) return;
    setSelection(initial);
    setKeyword('');
    setScope(defaultScope);
    setRecentAll(readRecent(kind));
    // `initial` is a new array on every render of the field; only the opening matters.
  }, [open]);

  const term = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  const body: OrgSearchBody = { keyword: term, unitTypes: [UNIT_TYPE[kind]], scope, pageIndex: 0, pageSize: SEARCH_PAGE_SIZE };
  const search = useQuery({
    queryKey: pickerKeys.search(body),
    queryFn: ({ signal }) => pickerApi.search(body, signal),
    enabled: open && term.length > 0,
    placeholderData: keepPreviousData,
    select: (result) => result.list.map(candidateOf),
  });

  const selectedIds = useMemo(() => new Set(selection.map((u) => u.id)), [selection]);
  const isSelected = useCallback((id: string) => selectedIds.has(id), [selectedIds]);
  const isFull = multiple && max !== undefined && selection.length >= max;

  /** Adds or removes one unit; a single picker replaces what it held. Answers false when the field is full. */
  const toggle = useCallback(
    (unit: PickerCandidate): boolean => {
      if (selectedIds.has(unit.id)) {
        setSelection((current) => current.filter((u) => u.id !== unit.id));
        return true;
      }
      if (!multiple) {
        setSelection([unit]);
        return true;
      }
      if (isFull) return false;
      setSelection((current) => [...current, unit]);
      return true;
    },
    [selectedIds, multiple, isFull],
  );
  const remove = useCallback((id: string) => setSelection((current) => current.filter((u) => u.id !== id)), []);
  const clear = useCallback(() => setSelection([]), []);

  /** The picks as the field's value; the ones picked in this dialog go to the front of 最近使用. */
  const confirm = useCallback((): PickedUnit[] => {
    const picked = selection.filter((u): u is SelectedUnit & PickerCandidate => typeof u.isExternal === 'boolean');
    rememberPicks(kind, picked as PickerCandidate[]);
    return selection.map(({ id, name }) => ({ id, name }));
  }, [selection, kind]);

  const recent = useMemo(() => recentAll.filter(inScope(scope)), [recentAll, scope]);

  return {
    keyword,
    setKeyword,
    term,
    scope,
    setScope,
    isScopeFixed: fixedScope !== undefined,
    selection,
    isSelected,
    isFull,
    toggle,
    remove,
    clear,
    recent,
    search,
    confirm,
  };
}

export type OrgPickerState = ReturnType<typeof useOrgPicker>;
