import { useCallback, useMemo, useState } from 'react';
import type { DryRunResult } from '../api/workflow-design-api.ts';
import { issuesByActivity, type Template, type TemplateIssue } from './template-model.ts';

/** What the property panel shows: an activity, a route, or the design as a whole. */
export type Selection = { kind: 'activity'; code: string } | { kind: 'route'; from: string; to: string } | null;

export interface DesignerState {
  template: Template;
  selection: Selection;
  /** Changed since the last save. */
  dirty: boolean;
  /** The validator's answer to the last save or publish (null before the first). */
  issues: TemplateIssue[] | null;
  /** The last dry run, drawn on the canvas until the design changes. */
  dryRun: DryRunResult | null;
}

/** The designer's state: the template being edited, the selection, the last issues and the last dry run. */
export function useWorkflowDesigner(initial: Template) {
  const [state, setState] = useState<DesignerState>({ template: initial, selection: null, dirty: false, issues: null, dryRun: null });
  /** Applies an edit of the template: the design is unsaved and an earlier dry run no longer holds. */
  const edit = useCallback((change: (template: Template) => Template) => {
    setState((s) => {
      const template = change(s.template);
      return template === s.template ? s : { ...s, template, dirty: true, dryRun: null };
    });
  }, []);
  /** Moves a node: unsaved, but the dry run still holds. */
  const move = useCallback((change: (template: Template) => Template) => setState((s) => ({ ...s, template: change(s.template), dirty: true })), []);
  const select = useCallback((selection: Selection) => setState((s) => ({ ...s, selection })), []);
  const setIssues = useCallback((issues: TemplateIssue[] | null) => setState((s) => ({ ...s, issues })), []);
  const saved = useCallback((issues: TemplateIssue[]) => setState((s) => ({ ...s, issues, dirty: false })), []);
  const setDryRun = useCallback((dryRun: DryRunResult | null) => setState((s) => ({ ...s, dryRun })), []);
  const byActivity = useMemo(() => issuesByActivity(state.issues ?? []), [state.issues]);
  return { state, edit, move, select, setIssues, saved, setDryRun, byActivity };
}

export type WorkflowDesignerApi = ReturnType<typeof useWorkflowDesigner>;
