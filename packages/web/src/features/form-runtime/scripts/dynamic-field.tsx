import { Descriptions, Table, Typography } from 'antd';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from '../fields/field-types.ts';

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
// A table of records shows at most this many rows and columns: content for reading, not a data grid.
const MAX_ROWS = 50;
const MAX_COLUMNS = 12;

/** One value of the content as short text: nested lists and objects as their JSON. */
function cellText(value: unknown): string {
  if (value == null || value === '') return EMPTY_TEXT;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * What a script computed for a dynamic control (docs/decisions/0118): a text as text, a list of records as a small
 * table, a record as label–value pairs, anything else as its text. Nobody types into it.
 */
export function DynamicContent({ value, label }: { value: unknown; label: string }) {
  if (value == null || value === '' || (Array.isArray(value) && value.length === 0)) return <Typography.Text>{EMPTY_TEXT}</Typography.Text>;
  if (Array.isArray(value) && value.every(isRow)) {
    const keys = [...new Set(value.flatMap((row) => Object.keys(row)))].slice(0, MAX_COLUMNS);
    const rows = value.slice(0, MAX_ROWS).map((row, index) => ({ ...row, __row: index }));
    return (
      <Table<Row>
        size="small"
        bordered
        pagination={false}
        aria-label={label}
        rowKey="__row"
        dataSource={rows}
        columns={keys.map((key) => ({ key, title: key, dataIndex: key, render: (cell: unknown) => cellText(cell) }))}
        scroll={{ x: 'max-content' }}
      />
    );
  }
  if (isRow(value)) {
    return <Descriptions size="small" bordered column={1} aria-label={label} items={Object.entries(value).map(([key, item]) => ({ key, label: key, children: cellText(item) }))} />;
  }
  if (Array.isArray(value)) return <Typography.Text style={{ wordBreak: 'break-word' }}>{value.map(cellText).join('、')}</Typography.Text>;
  return <Typography.Text style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>{cellText(value)}</Typography.Text>;
}

function DynamicEdit({ control, value }: FieldProps) {
  return <DynamicContent value={value} label={control.label} />;
}

function DynamicDisplay({ control, value }: DisplayProps) {
  return <DynamicContent value={value} label={control.label} />;
}

/** The dynamic control: filled by the form's scripts (the server's onLoad, the browser's form.set), never typed. */
export const dynamicField: FieldKind = { Edit: DynamicEdit, Display: DynamicDisplay };
