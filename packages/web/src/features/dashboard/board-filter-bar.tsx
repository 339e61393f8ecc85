import { DatePicker, Flex, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import type { BoardDefinition, BoardFilter } from '@tritium/shared/report/index';
import type { FilterValue } from '@tritium/shared/query/index';
import { MultiDepartmentPicker, type PickedUnit } from '../../components/org-picker/index.ts';
import { dashboardApi } from './api/dashboard-api.ts';

export type FilterValues = Record<string, FilterValue | undefined>;

/** The board's filters as the viewer sets them: a date range, departments, or values of a shared field. */
export function BoardFilterBar({ board, values, onChange }: { board: BoardDefinition; values: FilterValues; onChange: (values: FilterValues) => void }) {
  if (!board.filters.length) return null;
  const set = (id: string, value: FilterValue | undefined) => onChange({ ...values, [id]: value });
  return (
    <Flex wrap gap="small" align="center" role="search">
      {board.filters.map((f) => (
        <Flex key={f.id} align="center" gap={6} data-board-filter={f.id}>
          <Typography.Text type="secondary">{f.label}</Typography.Text>
          <FilterInput board={board} filter={f} value={values[f.id]} onChange={(v) => set(f.id, v)} />
        </Flex>
      ))}
    </Flex>
  );
}

function FilterInput({ board, filter, value, onChange }: { board: BoardDefinition; filter: BoardFilter; value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  if (filter.kind === 'dateRange') {
    const [from, to] = Array.isArray(value) ? value : [];
    return (
      <DatePicker.RangePicker
        aria-label={filter.label}
        value={from && to ? [dayjs(String(from)), dayjs(String(to))] : null}
        onChange={(range) => onChange(range?.[0] && range[1] ? [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] : undefined)}
      />
    );
  }
  if (filter.kind === 'department') return <DepartmentInput label={filter.label} value={value} onChange={onChange} />;
  return <FieldValuesInput board={board} filter={filter} value={value} onChange={onChange} />;
}

// The picker keeps names; the board filter holds ids. Names are kept here for the picker to show.
const pickedNames = new Map<string, string>();

function DepartmentInput({ label, value, onChange }: { label: string; value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  const ids = Array.isArray(value) ? (value as string[]) : [];
  const picked: PickedUnit[] = ids.map((id) => ({ id, name: pickedNames.get(id) ?? id }));
  return (
    <div style={{ minWidth: 200 }}>
      <MultiDepartmentPicker
        aria-label={label}
        value={picked}
        onChange={(units) => {
          units.forEach((u) => pickedNames.set(u.id, u.name));
          onChange(units.length ? units.map((u) => u.id) : undefined);
        }}
      />
    </div>
  );
}

/** Values of the first bound widget's field in its form, to choose from. */
function FieldValuesInput({ board, filter, value, onChange }: { board: BoardDefinition; filter: BoardFilter; value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  const binding = filter.bindings[0];
  const source = board.widgets.find((w) => w.id === binding?.widgetId)?.source;
  const options = useQuery({
    queryKey: ['dashboard', 'distinct', source?.schemaCode, binding?.field],
    queryFn: () => dashboardApi.distinct(source!.schemaCode, binding!.field),
    enabled: !!source && !!binding && !binding.field.includes('.'),
  });
  return (
    <Select
      aria-label={filter.label}
      mode="tags"
      allowClear
      style={{ minWidth: 180 }}
      value={Array.isArray(value) ? (value as string[]) : []}
      options={(options.data?.list ?? []).map((v) => ({ value: String(v.value), label: String(v.value) }))}
      onChange={(v: string[]) => onChange(v.length ? v : undefined)}
    />
  );
}
