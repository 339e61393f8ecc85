/** Association query, single and multi (关联表单): records of another form, chosen by their title. */
import { useState } from 'react';
import { Select } from 'antd';
import { useAssociationOffers } from './reference/use-association-offers.ts';
import { useDisplayContext, useLearnNames } from '../model/names.tsx';
import type { AnyFieldKind, FieldProps } from './field-types.ts';

// The records offered come from the association list call, within the control's data range (docs/decisions/0016).

type ReferenceProps = Omit<FieldProps<string | string[]>, 'onChange'> & { multiple: boolean; onChange: (value: never) => void };

function ReferenceEdit({ control, value, onChange, id, invalid, disabled, multiple, schemaCode }: ReferenceProps) {
  const context = useDisplayContext();
  const learn = useLearnNames();
  const [keyword, setKeyword] = useState('');
  const offered = useAssociationOffers(control, schemaCode, !disabled, keyword.trim());
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
