import { createContext, useContext, useDeferredValue, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { appKeys, appsApi, type FunctionNodeDto } from '../../apps/api/apps-api.ts';

/** The app of the form being designed: its forms are offered first. */
export const DesignerAppContext = createContext<{ appCode: string; schemaCode?: string } | undefined>(undefined);

const FORM_TYPES = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule];

interface FormPickerProps {
  id: string;
  value: unknown;
  onChange: (value: string | null) => void;
  /** The kinds of form offered (default: data, workflow and singleton forms). */
  types?: readonly number[];
}

/**
 * Chooses another form (an association's target) by name: the forms of this app at first, any form of the engine
 * by search. The stored value is the form's schema code.
 */
export function FormPicker({ id, value, onChange, types = FORM_TYPES }: FormPickerProps) {
  const { t } = useTranslation();
  const appCode = useContext(DesignerAppContext)?.appCode ?? '';
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const local = useQuery({ queryKey: appKeys.features(appCode), queryFn: () => appsApi.features(appCode), enabled: !!appCode });
  const found = useQuery({
    queryKey: appKeys.search(deferred, [...types]),
    queryFn: () => appsApi.searchNodes(deferred, [...types]),
    enabled: deferred.length > 0,
  });
  const nodes = (deferred ? (found.data?.list ?? []) : (local.data?.list ?? [])).filter((node: FunctionNodeDto) => types.includes(node.nodeType));
  const current = typeof value === 'string' && value ? value : undefined;
  const options = nodes.map((node) => ({ value: node.code, label: `${node.displayName}（${node.code}）` }));
  if (current && !options.some((option) => option.value === current)) {
    const known = local.data?.list.find((node) => node.code === current);
    options.unshift({ value: current, label: known ? `${known.displayName}（${current}）` : current });
  }
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={current}
      placeholder={t('formDesigner.properties.pickForm')}
      notFoundContent={t('formDesigner.properties.noForm')}
      options={options}
      onChange={(next) => onChange((next as string | undefined) ?? null)}
      style={{ width: '100%' }}
    />
  );
}
