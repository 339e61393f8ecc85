import { Empty, Flex, List, Skeleton, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DisplayContext } from '@tritium/shared/controls/index';
import { runtimeApi, runtimeKeys } from '../api/runtime-api.ts';
import { EMPTY_TEXT, type RuntimeControl } from '../fields/field-types.ts';
import { NamesProvider, useDisplayContext, type NameRequest } from '../model/names.tsx';
import { collectFields, type RuntimeNode } from '../model/runtime-tree.ts';
import { formatDateTimeSeconds } from '../../../lib/date-format.ts';

const textOf = (control: RuntimeControl | undefined, value: unknown, context: DisplayContext): string => {
  if (value == null || value === '') return EMPTY_TEXT;
  if (!control) return Array.isArray(value) ? String(value.length) : String(value);
  const text = control.type.displayText(value as never, control.options as never, context);
  return text === '' ? EMPTY_TEXT : text;
};

function Entries({ tree, list }: { tree: readonly RuntimeNode[]; list: NonNullable<Awaited<ReturnType<typeof runtimeApi.dataLog>>>['list'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const context = useDisplayContext();
  const { fields, grids } = collectFields(tree);
  const byCode = new Map<string, RuntimeControl>([...fields, ...grids.map((grid) => grid.control)].map((control) => [control.code, control]));
  return (
    <List
      size="small"
      dataSource={list}
      renderItem={(entry) => (
        <List.Item>
          <Flex vertical gap={token.paddingXXS} style={{ width: '100%' }}>
            <Flex justify="space-between" gap="small">
              <Typography.Text strong>{context.unitName?.(entry.userId) ?? entry.userId}</Typography.Text>
              <Typography.Text type="secondary">{formatDateTimeSeconds(entry.time)}</Typography.Text>
            </Flex>
            {entry.changes.map((change) => {
              const control = byCode.get(change.code);
              const isGrid = control?.type.dataType === 'children';
              return (
                <Typography.Text key={change.code}>
                  {control?.label ?? change.code}
                  {isGrid
                    ? `：${t('formRuntime.dataLog.rowsChanged')}`
                    : `：${textOf(control, change.from, context)} → ${textOf(control, change.to, context)}`}
                </Typography.Text>
              );
            })}
          </Flex>
        </List.Item>
      )}
    />
  );
}

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);

/** The people and records a log names: its authors, and the values of people and association fields it changed. */
function namesOfLog(tree: readonly RuntimeNode[], list: { userId: string; changes: { code: string; from: unknown; to: unknown }[] }[]): NameRequest {
  const byCode = new Map(collectFields(tree).fields.map((control) => [control.code, control]));
  const unitIds = new Set(list.map((entry) => entry.userId));
  const objects = new Map<string, Set<string>>();
  for (const change of list.flatMap((entry) => entry.changes)) {
    const control = byCode.get(change.code);
    const values = [...idsOf(change.from), ...idsOf(change.to)];
    if (control && ['user', 'users', 'unit', 'units'].includes(control.type.dataType)) values.forEach((id) => unitIds.add(id));
    const target = control?.options.schemaCode;
    if (control && (control.type.dataType === 'reference' || control.type.dataType === 'references') && typeof target === 'string') {
      const set = objects.get(target) ?? new Set<string>();
      values.forEach((id) => set.add(id));
      objects.set(target, set);
    }
  }
  return { unitIds: [...unitIds].sort(), objects: [...objects].map(([schemaCode, ids]) => ({ schemaCode, ids: [...ids].sort() })) };
}

/** 数据日志: who changed which field from what to what, newest first (enableDataLog). */
export function DataLogPanel({ schemaCode, objectId, tree }: { schemaCode: string; objectId: string; tree: readonly RuntimeNode[] }) {
  const { t } = useTranslation();
  const log = useQuery({ queryKey: runtimeKeys.dataLog(schemaCode, objectId), queryFn: () => runtimeApi.dataLog(schemaCode, objectId) });
  if (log.isPending) return <Skeleton active />;
  const list = log.data?.list ?? [];
  if (list.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formRuntime.dataLog.empty')} />;
  return (
    <NamesProvider request={namesOfLog(tree, list)}>
      <Entries tree={tree} list={list} />
    </NamesProvider>
  );
}
