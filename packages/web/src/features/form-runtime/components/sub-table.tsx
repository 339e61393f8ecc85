import type { HTMLAttributes } from 'react';
import { Button, Card, Flex, Table, Typography, theme } from 'antd';
import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isEditingMode, type RuntimeControl } from '../fields/field-types.ts';
import { newRowKey, type GridRow } from '../model/form-values.ts';
import { FieldCell } from './field-cell.tsx';
import { RuntimeFormContext, useRuntimeForm, type ControlPermission } from './form-context.ts';
import { PasteHint, useGridPaste } from './sub-table-paste.tsx';

/** A sub-table (子表): rows saved with their parent; add, copy and delete rows while editing. */
export function SubTable({ control, columns }: { control: RuntimeControl; columns: RuntimeControl[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const state = useRuntimeForm();
  const rows = state.form.children[control.code] ?? [];
  const permission = state.permissionOf?.(control.code);
  const editing = isEditingMode(state.mode) && control.options.readonly !== true && permission?.editable !== false;
  const error = state.errors[`values.${control.code}`];
  // Cells copied from a spreadsheet become rows (sub-table-paste.tsx).
  const onPaste = useGridPaste(control, columns, editing);
  const setCell = (key: string, code: string, value: unknown) =>
    state.setRows(control.code, (current) => current.map((row) => (row.__key === key ? { ...row, [code]: value } : row)));
  const addRow = () => state.setRows(control.code, (current) => [...current, { __key: newRowKey() }]);
  const copyRow = (row: GridRow) =>
    state.setRows(control.code, (current) => {
      const { ObjectId: _saved, __key: _key, ...values } = row;
      const index = current.findIndex((r) => r.__key === row.__key);
      return [...current.slice(0, index + 1), { ...values, __key: newRowKey() }, ...current.slice(index + 1)];
    });
  const removeRow = (row: GridRow) => state.setRows(control.code, (current) => current.filter((r) => r.__key !== row.__key));
  // A node's permission on the sub-table holds for its columns; the caller's permission groups may also make a
  // column (`Grid.Column`) hidden or read-only (docs/decisions/0037).
  const columnOf = (code: string): ControlPermission => {
    const right = state.fieldRights?.[`${control.code}.${code}`];
    const base = permission ?? { visible: true, editable: true, required: false };
    return right ? { ...base, visible: base.visible && right !== 'hidden', editable: false } : base;
  };
  const cellState = permission || state.fieldRights ? { ...state, permissionOf: columnOf } : state;
  const shown = columns.filter((column) => columnOf(column.code).visible);
  const shownColumns = columns.filter((column) => columnOf(column.code).visible !== false);
  const cell = (row: GridRow, index: number, column: RuntimeControl, title: 'none' | 'above') => (
    <RuntimeFormContext.Provider value={cellState}>
      <FieldCell control={column} value={row[column.code]} onChange={(value) => setCell(row.__key, column.code, value)} errorKey={`children.${control.code}.${index}.${column.code}`} title={title} />
    </RuntimeFormContext.Provider>
  );
  const rowActions = (row: GridRow, index: number) =>
    editing && (
      <Flex gap={4}>
        <Button size="small" type="text" icon={<CopyOutlined />} aria-label={t('formRuntime.grid.copyRow', { index: index + 1 })} onClick={() => copyRow(row)} />
        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('formRuntime.grid.removeRow', { index: index + 1 })} onClick={() => removeRow(row)} />
      </Flex>
    );
  const header = (
    <Typography.Text strong>
      {(control.options.required === true || permission?.required === true) && editing && <span style={{ color: token.colorError, marginInlineEnd: token.marginXXS }}>*</span>}
      {control.label}
    </Typography.Text>
  );
  const addButton = editing && (
    <Button icon={<PlusOutlined />} onClick={addRow} style={{ alignSelf: 'flex-start' }}>
      {t('formRuntime.grid.addRow')}
    </Button>
  );
  const errorText = error && (
    <Typography.Text type="danger" role="alert">
      {error}
    </Typography.Text>
  );

  if (state.device === 'phone') {
    return (
      <Flex vertical gap={token.paddingXS} role="group" aria-label={control.label} onPaste={onPaste}>
        {header}
        {rows.map((row, index) => (
          <Card key={row.__key} size="small" title={t('formRuntime.grid.rowTitle', { index: index + 1 })} extra={rowActions(row, index)}>
            <Flex vertical gap={token.paddingXS}>
              {shown.map((column) => (
                <div key={column.code}>{cell(row, index, column, 'above')}</div>
              ))}
            </Flex>
          </Card>
        ))}
        {addButton}
        {errorText}
      </Flex>
    );
  }
  return (
    <Flex vertical gap={token.paddingXS} role="group" aria-label={control.label} onPaste={onPaste}>
      {header}
      <Table<GridRow>
        size="small"
        bordered
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowKey="__key"
        dataSource={rows}
        locale={{ emptyText: t('formRuntime.grid.empty') }}
        columns={[
          { key: '#', title: '#', width: 48, render: (_v, _row, index) => index + 1 },
          ...shown.map((column) => ({
            key: column.code,
            title: column.label,
            width: 200,
            onCell: () => ({ 'data-paste-column': column.code }) as HTMLAttributes<HTMLElement>,
            render: (_v: unknown, row: GridRow, index: number) => cell(row, index, column, 'none'),
          })),
          ...(editing ? [{ key: 'actions', title: '', width: 80, fixed: 'right' as const, render: (_v: unknown, row: GridRow, index: number) => rowActions(row, index) }] : []),
        ]}
      />
      {addButton}
      {editing && <PasteHint />}
      {errorText}
    </Flex>
  );
}
