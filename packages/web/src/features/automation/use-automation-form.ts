import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formDesignApi, formDesignKeys } from '../form-designer/api/form-design-api.ts';
import { sourceFieldsOf, type SourceFields } from '../form-designer/business-rules/source-fields.ts';
import { initialState } from '../form-designer/state/designer-state.ts';
import { listViewApi, listViewKeys, type ViewField } from '../list-view/api/list-view-api.ts';

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
}

/** The form's published definition (automations run against it; the draft until first published) and its view fields. */
export function useAutomationForm(schemaCode: string) {
  const design = useQuery({ queryKey: formDesignKeys.load(schemaCode), queryFn: () => formDesignApi.load(schemaCode) });
  const isPublished = !!design.data?.published;
  const view = useQuery({ queryKey: listViewKeys.designer(schemaCode), queryFn: () => listViewApi.designerLoad(schemaCode), enabled: isPublished });
  const form = useMemo((): AutomationForm | undefined => {
    if (!design.data) return undefined;
    const version = design.data.published ?? design.data.draft;
    return {
      schemaCode,
      appCode: design.data.appCode,
      name: version.definition.attributes.displayName,
      isPublished,
      sources: sourceFieldsOf(initialState(version.definition, version.version).controls),
      viewFields: view.data?.fields ?? [],
    };
  }, [design.data, view.data, schemaCode, isPublished]);
  return { form, error: design.error, isLoading: design.isLoading };
}
