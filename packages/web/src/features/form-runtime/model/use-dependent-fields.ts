import { useEffect, useMemo, useRef } from 'react';
import type { SubmitRule } from '@tritium/shared/formula/index';
import type { FormValues } from './form-values.ts';
import { linksApi } from './links-api.ts';
import type { RuntimeNode } from './runtime-tree.ts';
import { dependentControls, isBlankValue, setIn, stillCurrent, submitRuleState, triggersOf, type Trigger } from './dependent-fields.ts';

type Patch = (change: (current: FormValues) => FormValues) => void;

/**
 * Live association fills, associated properties and data links of an open form (docs/decisions/0016). Watches what
 * each depends on; when a person changes it, asks the server (one call for every link that changed) and writes the
 * answer in, unless the value changed again meanwhile. A reload (`source`) starts watching afresh without firing.
 */
export function useDependentFields(schemaCode: string, tree: readonly RuntimeNode[], values: FormValues | null, source: unknown, patch: Patch) {
  const controls = useMemo(() => dependentControls(tree), [tree]);
  const seen = useRef<{ source: unknown; keys: Map<string, string> }>({ source: undefined, keys: new Map() });
  const patchRef = useRef(patch);
  patchRef.current = patch;

  useEffect(() => {
    if (!values) return;
    const fresh = seen.current.source !== source;
    if (fresh) seen.current = { source, keys: new Map() };
    const fired: Trigger[] = [];
    for (const trigger of triggersOf(controls, values)) {
      const before = seen.current.keys.get(trigger.id);
      seen.current.keys.set(trigger.id, trigger.key);
      if (!fresh && before !== undefined && before !== trigger.key) fired.push(trigger);
    }
    if (!fired.length) return;
    const apply = (trigger: Trigger, changes: Record<string, unknown>) =>
      patchRef.current((current) => (stillCurrent(controls, current, trigger) ? setIn(current, trigger, changes) : current));
    for (const trigger of fired.filter((t) => t.kind === 'association')) {
      void linksApi
        .associationFill(schemaCode, trigger.path, trigger.ids)
        .then((answer) => apply(trigger, { ...answer.values, ...answer.properties }))
        .catch(() => undefined);
    }
    const links = fired.filter((t) => t.kind === 'link');
    // An empty condition clears at once; the rest go in one call.
    for (const trigger of links.filter((t) => Object.values(t.conditions).some(isBlankValue))) apply(trigger, { [trigger.control.code]: null });
    const asked = links.filter((t) => !Object.values(t.conditions).some(isBlankValue));
    if (asked.length) {
      void linksApi
        .dataLinks(schemaCode, asked.map((t) => ({ controlCode: t.path, values: t.conditions })))
        .then((answer) => asked.forEach((trigger, i) => apply(trigger, { [trigger.control.code]: answer.list[i]?.value ?? null })))
        .catch(() => undefined);
    }
  }, [controls, values, source, schemaCode]);
}

/** The submit rules of the form for the values as they are now. */
export function useSubmitRules(rules: readonly SubmitRule[] | undefined, values: FormValues | null) {
  return useMemo(() => (values ? submitRuleState(rules, values) : { hideSubmit: false, refusal: null }), [rules, values]);
}
