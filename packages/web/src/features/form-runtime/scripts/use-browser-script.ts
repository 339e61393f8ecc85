import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { App } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import type { FormMode } from '../fields/field-types.ts';
import { executePayload } from '../model/form-values.ts';
import type { useRuntimeRecord } from '../model/use-runtime-record.ts';
import type { FormScriptState } from './form-script-context.ts';
import { openIframeChannel } from './iframe-channel.ts';
import { scriptApi, scriptKeys } from './script-api.ts';
import { NO_OVERLAY, nextOverlay, operationRules, scriptValues, type ScriptOverlay } from './script-form.ts';
import { ScriptHost, type OpenChannel, type ScriptProblem } from './script-host.ts';
import { checkOperations, parseServerAnswer, type JsonValue, type ScriptOperation, type ServerAnswer } from './script-protocol.ts';

type RuntimeRecord = ReturnType<typeof useRuntimeRecord>;

/** Whether the script lets a data action go on; a stop carries the text to show (none: already shown). */
export type ScriptVerdict = { stop: false } | { stop: true; message?: string };

// The actions a browser script's beforeSubmit and afterSubmit hear; validate runs before the saving ones only.
const SUBMITS = new Set(['Save', 'Submit', 'SubmitAndAdd', 'Remove']);
const VALIDATED = new Set(['Save', 'Submit', 'SubmitAndAdd']);

const asJson = (value: unknown): JsonValue => (value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue));

/**
 * The browser script of an open form (docs/decisions/0118): fetched once per form, run in a sandbox frame only when
 * the form has one, its handlers called on load, on a person's change, around the data actions and for buttons, and
 * its operations applied through the form's own setter and an overlay of hidden and locked controls.
 */
export function useBrowserScript(schemaCode: string, mode: FormMode, record: RuntimeRecord, open: OpenChannel = openIframeChannel) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  // A print page runs no code; a form opened to fill, read or handle does.
  const active = mode !== 'Print';
  const script = useQuery({ queryKey: scriptKeys.runtime(schemaCode), queryFn: () => scriptApi.runtime(schemaCode), enabled: active, staleTime: 60_000, retry: false });
  const [overlay, setOverlay] = useState<ScriptOverlay>(NO_OVERLAY);
  const [host, setHost] = useState<ScriptHost | null>(null);
  const latest = useRef({ record, form: record.values, host });
  useLayoutEffect(() => {
    latest.current.record = record;
    latest.current.form = record.values;
    latest.current.host = host;
  });
  const snapshot = useCallback(() => scriptValues(latest.current.form), []);

  const report = useCallback(
    (problem: ScriptProblem) => {
      if (problem.kind === 'error') void message.error(t('formRuntime.script.error', { message: problem.message }));
      else if (problem.kind === 'timeout') void message.error(t('formRuntime.script.timeout', { seconds: problem.seconds }));
      else if (problem.kind === 'refused') void message.warning(t('formRuntime.script.refused', { count: problem.count }));
      else void message.warning(problem.message ? t('formRuntime.script.loadFailed', { message: problem.message }) : t('formRuntime.script.loadFailedPlain'));
    },
    [message, t],
  );

  const apply = useCallback(
    (ops: readonly ScriptOperation[]) => {
      for (const op of ops) {
        if (op.op === 'set') {
          // The next handler reads the value at once, before the form draws it again.
          const form = latest.current.form;
          if (form) latest.current.form = { ...form, values: { ...form.values, [op.code]: op.value } };
          latest.current.record.setValue(op.code, op.value);
        } else if (op.op === 'message') void message[op.type](op.text);
      }
      setOverlay((current) => nextOverlay(current, ops));
    },
    [message],
  );

  /** The form's server action with its values; the fields the server changed land in the form. */
  const callAction = useCallback(
    async (actionName: string, params: JsonValue): Promise<ServerAnswer> => {
      const { record: current, form } = latest.current;
      const objectId = current.data.data?.system.ObjectId;
      const values = form ? executePayload(current.tree, form).values : {};
      const answer = parseServerAnswer(await scriptApi.action({ schemaCode, ...(objectId ? { objectId } : {}), actionName, values, params }));
      if (answer.values) apply(checkOperations(Object.entries(answer.values).map(([code, value]) => ({ op: 'set', code, value })), operationRules(current.tree)).valid);
      if (answer.message) void message.success(answer.message);
      return answer;
    },
    [schemaCode, apply, message],
  );

  const js = active ? script.data?.js : undefined;
  const version = script.data?.version;
  useEffect(() => {
    if (!js) return;
    const next = new ScriptHost({
      js,
      open,
      rules: () => operationRules(latest.current.record.tree),
      apply,
      report,
      // The server's refusal was shown as every API error is; the script hears its message.
      callServer: (actionName, params) => callAction(actionName, params).catch((error: unknown) => Promise.reject(new Error(isApiError(error) ? error.errorMessage : String(error)))),
    });
    latest.current.host = next;
    setHost(next);
    return () => {
      next.dispose();
      latest.current.host = null;
      setHost(null);
      setOverlay(NO_OVERLAY);
    };
    // One sandbox per script version; the callbacks read the form through `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [js, version, open]);

  useEffect(() => {
    if (script.error) report({ kind: 'loadError', message: '' });
  }, [script.error, report]);

  // onLoad and afterLoad each time the record is loaded (a reload after a save loads it again).
  const loaded = record.form.data && record.data.data;
  useEffect(() => {
    if (!host || !loaded) return;
    void host.run('onLoad', [], snapshot).then(() => host.run('afterLoad', [], snapshot));
  }, [host, loaded, snapshot]);

  const { setValue: recordSetValue } = record;
  /** A person's change: the form's setter, then the script's onChange with the field and its new value. */
  const setValue = useCallback(
    (code: string, value: unknown) => {
      recordSetValue(code, value);
      const current = latest.current.host;
      if (!current?.has('onChange')) return;
      const form = latest.current.form;
      if (form) latest.current.form = { ...form, values: { ...form.values, [code]: value } };
      void current.run('onChange', [code, asJson(value)], snapshot);
    },
    [recordSetValue, snapshot],
  );

  /**
   * A submit pressed before the script's answer came waits for it (its checks must not be skipped): null when the form
   * has no script, its sandbox once made, 'missing' when it is not made within a few seconds.
   */
  const arrivedHost = useCallback(async (): Promise<ScriptHost | null | 'missing'> => {
    if (!active) return null;
    const known = await client.ensureQueryData({ queryKey: scriptKeys.runtime(schemaCode), queryFn: () => scriptApi.runtime(schemaCode) }).catch(() => null);
    if (!known?.js) return null;
    for (let waited = 0; waited < 5_000 && !latest.current.host; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    return latest.current.host ?? 'missing';
  }, [active, client, schemaCode]);

  /** validate, then beforeSubmit: a text or false stops the action; a handler that failed stops it too. */
  const beforeAction = useCallback(
    async (action: string): Promise<ScriptVerdict> => {
      if (!SUBMITS.has(action)) return { stop: false };
      const current = latest.current.host ?? (await arrivedHost());
      if (current === 'missing') return { stop: true, message: t('formRuntime.script.notReady') };
      if (!current) return { stop: false };
      const failed = { stop: true, message: t('formRuntime.script.stopped') } as const;
      if (VALIDATED.has(action)) {
        const checked = await current.run('validate', [], snapshot);
        if (!checked.ok) return checked.reason === 'failed' ? failed : { stop: false };
        if (typeof checked.result === 'string' && checked.result) return { stop: true, message: checked.result };
      }
      const before = await current.run('beforeSubmit', [action], snapshot);
      if (!before.ok) return before.reason === 'failed' ? failed : { stop: false };
      if (before.result === false) return { stop: true, message: t('formRuntime.script.submitStopped') };
      if (typeof before.result === 'string' && before.result) return { stop: true, message: before.result };
      return { stop: false };
    },
    [snapshot, t],
  );

  /** afterSubmit with the action and the record's id, awaited (bounded by the time-out) before the form moves on. */
  const afterAction = useCallback(
    async (action: string, objectId: string | null) => {
      const current = latest.current.host;
      if (current && SUBMITS.has(action)) await current.run('afterSubmit', [{ actionName: action, objectId }], snapshot);
    },
    [snapshot],
  );

  const pressButton = useCallback(
    async (actionName: string) => {
      const current = latest.current.host;
      if (current && (await current.whenReady()) && current.has('button', actionName)) {
        await current.run('button', [actionName], snapshot);
        return;
      }
      try {
        await callAction(actionName, null);
      } catch (error) {
        // Shown as every API error is.
        if (!isApiError(error)) throw error;
      }
    },
    [callAction, snapshot],
  );
  const context = useMemo<FormScriptState>(() => ({ pressButton, loading: active && script.isPending }), [pressButton, active, script.isPending]);

  return { overlay, setValue, beforeAction, afterAction, context };
}
