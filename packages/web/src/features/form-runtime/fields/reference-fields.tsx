/** Association query, single and multi (关联表单): records of another form, chosen by their title. */
import { useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { runtimeApi } from '../api/runtime-api.ts';
import { useDisplayContext, useLearnNames } from '../model/names.tsx';
import type { AnyFieldKind, FieldProps } from './field-types.ts';

// The newest effective records are offered; typing searches their titles on the server (Contains on Name, served by
// its trigram index: docs/decisions/0013). The association filter of the control comes with the list views.
const OFFERED = 50;

function useOffered(schemaCode: unknown, open: boolean, keyword: string) {
  return useQuery({
    queryKey: ['form-runtime', 'association', schemaCode, keyword],
    queryFn: () =>
      runtimeApi.query({
        schemaCode: String(schemaCode),
        pageSize: OFFERED,
        status: [1],
        ...(keyword ? { filter: { field: 'Name', operator: 'Contains' as const, value: keyword } } : {}),
      }),
    enabled: open && typeof schemaCode === 'string' && schemaCode !== '',
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}

type ReferenceProps = Omit<FieldProps<string | string[]>, 'onChange'> & { multiple: boolean; onChange: (value: never) => void };

function ReferenceEdit({ control, value, onChange, id, invalid, disabled, multiple }: ReferenceProps) {
  const context = useDisplayContext();
  const learn = useLearnNames();
  const [keyword, setKeyword] = useState('');
  const offered = useOffered(control.options.schemaCode, !disabled, keyword.trim());
  const rows = (offered.data?.list ?? []) as { ObjectId: string; Name: string }[];
  const chosen = value == null ? [] : Array.isArray(value) ? value : [value];
  const known = new Map(rows.map((row) => [row.ObjectId, row.Name]));
  const options = [
    ...rows.map((row) => ({ value: row.ObjectId, label: row.Name })),
    ...chosen.filter((objectId) => !known.has(objectId)).map((objectId) => ({ value: objectId, label: context.objectName?.(objectId) ?? objectId })),
  ];
  const change = (next: string | string[] | undefined) => {
    const ids = next == null ? [] : Array.isArray(next) ? next : [next];
    learn('objects', ids.map((objectId) => ({ id: objectId, name: known.get(objectId) ?? objectId })));
    (onChange as (value: string | string[] | null) => void)(ids.length === 0 ? null : multiple ? ids : ids[0]);
  };
  return (
    <Select
      id={id}
      aria-label={control.label}
      style={{ width: '100%' }}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      loading={offered.isFetching}
      value={multiple ? chosen : chosen[0]}
      options={options}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      onChange={change}
    />
  );
}

export const REFERENCE_FIELDS = {
  associationQuery: { Edit: (props: FieldProps<string>) => <ReferenceEdit {...props} multiple={false} /> },
  associationQueryMulti: { Edit: (props: FieldProps<string[]>) => <ReferenceEdit {...props} multiple /> },
} satisfies Record<string, AnyFieldKind>;
