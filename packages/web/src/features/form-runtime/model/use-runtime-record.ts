import { useCallback, useMemo, useState } from 'react';
import { LiveRecord } from '@tritium/shared/business-rules/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error.ts';
import { runtimeApi, runtimeKeys, type LoadDataResult, type RuntimeAction } from '../api/runtime-api.ts';
import { executePayload, serverFieldErrors, validateForm, withRowKeys, type FieldErrors, type FormValues } from './form-values.ts';
import { collectFields, runtimeTree } from './runtime-tree.ts';
import type { NameRequest } from './names.tsx';
import { useDependentFields, useSubmitRules } from './use-dependent-fields.ts';

const UNIT_TYPES = new Set(['user', 'users', 'unit', 'units']);
const SYSTEM_UNIT_FIELDS = ['CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId'];
const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/** The ids a record's values hold, to look their names up once. */
function nameRequestOf(tree: ReturnType<typeof runtimeTree>, data: LoadDataResult): NameRequest {
  const { fields, grids } = collectFields(tree);
  const unitIds = SYSTEM_UNIT_FIELDS.flatMap((field) => ids((data.system as Record<string, unknown>)[field]));
  const objects = new Map<string, string[]>();
  const visit = (control: (typeof fields)[number], value: unknown) => {
    if (UNIT_TYPES.has(control.type.dataType)) unitIds.push(...ids(value));
    if ((control.type.dataType === 'reference' || control.type.dataType === 'references') && typeof control.options.schemaCode === 'string') {
      objects.set(control.options.schemaCode, [...(objects.get(control.options.schemaCode) ?? []), ...ids(value)]);
    }
  };
  for (const control of fields) visit(control, data.values[control.code]);
  for (const grid of grids) for (const row of data.children[grid.control.code] ?? []) for (const column of grid.columns) visit(column, row[column.code]);
  return { unitIds: unitIds.sort(), objects: [...objects].map(([schemaCode, list]) => ({ schemaCode, ids: list.sort() })) };
}

export type ExecuteOutcome = { ok: true; objectId: string | null } | { ok: false; message: string };

/**
 * One open record: the published form, its values as loaded and as edited, client and server errors, and the data
 * actions. The server's answer wins: a 777 lands next to the fields it names.
 */
export function useRuntimeRecord(schemaCode: string, objectId: string | undefined, initial?: Record<string, unknown>) {
  const queryClient = useQueryClient();
  const form = useQuery({ queryKey: runtimeKeys.form(schemaCode), queryFn: () => runtimeApi.loadForm(schemaCode), staleTime: 0 });
  const data = useQuery({ queryKey: runtimeKeys.record(schemaCode, objectId), queryFn: () => runtimeApi.loadData(schemaCode, objectId), staleTime: 0, gcTime: 0 });
  const tree = useMemo(() => (form.data ? runtimeTree(form.data.definition.controls) : []), [form.data]);
  const [edited, setEdited] = useState<{ source: LoadDataResult; values: FormValues } | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const loaded = useMemo<FormValues | null>(
    () => (data.data ? { values: objectId || !initial ? data.data.values : { ...data.data.values, ...initial }, children: Object.fromEntries(Object.entries(data.data.children).map(([code, rows]) => [code, withRowKeys(rows)])) } : null),
    [data.data, objectId, initial],
  );
  // Edits belong to the loaded answer they started from; a reload starts again from the server's values.
  const entered = edited && edited.source === data.data ? edited.values : loaded;
  // Formulas and sub-table rollups follow as people type, evaluated again only where an edit reaches
  // (docs/decisions/0034); the server computes them again on save with the same functions. Rollups over other forms
  // show what the server stored.
  const live = useMemo(() => (form.data ? new LiveRecord(form.data.definition.controls) : null), [form.data]);
  const values = useMemo<FormValues | null>(() => {
    if (!entered || !live?.computes) return entered;
    const computed = live.evaluate(entered.values, entered.children);
    return { values: computed.values, children: computed.children as FormValues['children'] };
  }, [entered, live]);
  const names = useMemo(() => (data.data && form.data ? nameRequestOf(tree, data.data) : { unitIds: [], objects: [] }), [tree, data.data, form.data]);

  // Every write lands on the values as they are by then (an updater, never a snapshot of the last render): an answer
  // of the server queued just before a keystroke must survive it.
  const patch = useCallback(
    (change: (current: FormValues) => FormValues) =>
      setEdited((current) => {
        const base = current && current.source === data.data ? current.values : loaded;
        return data.data && base ? { source: data.data, values: change(base) } : current;
      }),
    [data.data, loaded],
  );
  const update = useCallback(
    (change: (current: FormValues) => FormValues, errorKeys: (key: string) => boolean) => {
      patch(change);
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !errorKeys(key))));
    },
    [patch],
  );
  const setValue = useCallback(
    (code: string, value: unknown) => update((current) => ({ ...current, values: { ...current.values, [code]: value } }), (key) => key === `values.${code}`),
    [update],
  );
  useDependentFields(schemaCode, tree, values, data.data, patch);
  const submitRules = useSubmitRules(form.data?.definition.attributes.submitRules, values);
  const setRows = useCallback(
    (gridCode: string, change: (rows: FormValues['children'][string]) => FormValues['children'][string]) =>
      update((current) => ({ ...current, children: { ...current.children, [gridCode]: change(current.children[gridCode] ?? []) } }), (key) => key === `values.${gridCode}` || key.startsWith(`children.${gridCode}.`)),
    [update],
  );

  const execute = useCallback(
    async (actionCode: RuntimeAction): Promise<ExecuteOutcome> => {
      if (!values) return { ok: false, message: '' };
      if (actionCode !== 'Remove' && actionCode !== 'Copy') {
        const problems = validateForm(tree, values);
        setErrors(problems);
        if (Object.keys(problems).length > 0) return { ok: false, message: Object.values(problems)[0] };
      }
      // Submit rules refuse before the call; the server checks them again.
      if ((actionCode === 'Submit' || actionCode === 'SubmitAndAdd') && submitRules.refusal) return { ok: false, message: submitRules.refusal };
      const payload = actionCode === 'Remove' || actionCode === 'Copy' ? { values: {} } : executePayload(tree, values);
      try {
        const result = await runtimeApi.execute({ schemaCode, actionCode, ...(data.data?.system.ObjectId ? { objectId: data.data.system.ObjectId } : {}), ...payload });
        // Lists, the data log and the names of this form's records follow the save.
        void queryClient.invalidateQueries({ queryKey: runtimeKeys.records(schemaCode) });
        void queryClient.invalidateQueries({ queryKey: runtimeKeys.dataLogs(schemaCode) });
        return { ok: true, objectId: result.objectId };
      } catch (error) {
        if (!isApiError(error)) throw error;
        const fieldErrors = serverFieldErrors(error.detail);
        const field = (error.detail as { field?: unknown } | undefined)?.field;
        if (typeof field === 'string') fieldErrors[`values.${field}`] = error.errorMessage;
        setErrors(fieldErrors);
        return { ok: false, message: error.errorMessage };
      }
    },
    [values, tree, schemaCode, data.data, queryClient, submitRules.refusal],
  );

  /**
   * Sends the form's values with another call (a work item's Submit: the server takes the node's editable fields and
   * checks its required ones); a refusal lands next to the fields it names, as with the form's own actions.
   */
  const sendValues = useCallback(
    async (send: (payload: ReturnType<typeof executePayload>) => Promise<unknown>): Promise<ExecuteOutcome> => {
      if (!values) return { ok: false, message: '' };
      try {
        await send(executePayload(tree, values));
        setErrors({});
        return { ok: true, objectId: data.data?.system.ObjectId ?? null };
      } catch (error) {
        if (!isApiError(error)) throw error;
        setErrors(serverFieldErrors(error.detail));
        return { ok: false, message: error.errorMessage };
      }
    },
    [values, tree, data.data],
  );

  const reload = useCallback(() => {
    setEdited(null);
    setErrors({});
    return data.refetch();
  }, [data]);

  return { form, data, tree, values, errors, names, setValue, setRows, execute, sendValues, reload, dirty: !!edited && edited.source === data.data, hideSubmit: submitRules.hideSubmit };
}
