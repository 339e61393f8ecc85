import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { sourceFieldsOf, type SourceControl, type SourceFields } from '../rule-values/source-fields.ts';
import { automationFormApi, automationKeys, type ViewField } from './automation-api.ts';

/** What the automation page knows of its form: its name and app, the fields steps read, the fields conditions filter on. */
export interface AutomationForm {
  schemaCode: string;
  appCode: string;
  name: string;
  isPublished: boolean;
  /** The fields values and templates read (main table, system fields, sub-table columns). */
  sources: SourceFields;
  /** The published fields with their operators: conditions, trigger fields. */
  viewFields: ViewField[];
  /** The plugin controls (a payment step names one) with the plugin each is drawn by. */
  pluginControls: { code: string; name: string; pluginCode: string | null }[];
}

/** Plugin controls anywhere in the tree (layouts and tabs included; a sub-table's columns are not the record's). */
function pluginControlsOf(controls: readonly SourceControl[]): AutomationForm['pluginControls'] {
  return controls.flatMap((c) => {
    const options = (c.options ?? {}) as { displayName?: unknown; pluginCode?: unknown };
    const own = c.type === 'plugin' ? [{ code: c.code, name: String(options.displayName ?? c.code), pluginCode: typeof options.pluginCode === 'string' ? options.pluginCode : null }] : [];
    if (c.type === 'gridView') return own;
    return [...own, ...pluginControlsOf(c.controls ?? []), ...(c.panes ?? []).flatMap((p) => pluginControlsOf(p.controls))];
  });
}

/** The form's published definition (automations run against it; the draft until first published) and its view fields. */
export function useAutomationForm(schemaCode: string) {
  const design = useQuery({ queryKey: automationKeys.form(schemaCode), queryFn: () => automationFormApi.design(schemaCode) });
  const isPublished = !!design.data?.published;
  const view = useQuery({ queryKey: automationKeys.fields(schemaCode), queryFn: () => automationFormApi.fields(schemaCode), enabled: isPublished });
  const form = useMemo((): AutomationForm | undefined => {
    if (!design.data) return undefined;
    const version = design.data.published ?? design.data.draft;
    return {
      schemaCode,
      appCode: design.data.appCode,
      name: version.definition.attributes.displayName,
      isPublished,
      sources: sourceFieldsOf(version.definition.controls),
      viewFields: view.data?.fields ?? [],
      pluginControls: pluginControlsOf(version.definition.controls),
    };
  }, [design.data, view.data, schemaCode, isPublished]);
  return { form, error: design.error, isLoading: design.isLoading };
}
