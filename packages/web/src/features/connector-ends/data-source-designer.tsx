import { useEffect, useState } from 'react';
import { App, Alert, Button, Checkbox, Drawer, Flex, Form, Input, Radio, Select, Space, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import type { zhCNConnectors } from '../../locales/zh-CN-connectors.ts';
import { dataSourceApi, dataSourceKeys, type DataSourceDto } from './connector-ends-api.ts';

type Draft = contracts.DataSourceDefinitionInput;
const emptyDraft = (): Draft => ({ connectorCode: '', listOutput: '', columns: [], filters: [], paging: null });

/**
 * The data-source node's settings (docs/decisions/0123): a GET or POST connector with a list output, the item fields
 * shown as columns (with titles), the filters offered (a connector place and a label), and the paging places.
 */
export function DataSourceDesigner({ open, node, onClose }: { open: boolean; node: DataSourceDto; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(node.definition ?? emptyDraft());
  useEffect(() => {
    if (open) setDraft(node.definition ?? emptyDraft());
  }, [open, node.definition]);
  const connectors = useQuery({ queryKey: dataSourceKeys.connectors, queryFn: dataSourceApi.connectors, enabled: open });
  const items = connectors.data?.items ?? [];
  const chosen = items.find((c) => c.code === draft.connectorCode);
  const list = chosen?.lists.find((l) => l.name === draft.listOutput);
  const places = (chosen?.places ?? []).map((p) => ({ value: p, label: `{{${p}}}` }));
  const save = useMutation({
    mutationFn: () => dataSourceApi.save(node.code, draft),
    onSuccess: (saved) => {
      client.setQueryData(dataSourceKeys.node(node.code), saved);
      void client.invalidateQueries({ queryKey: ['dataSource', 'rows', node.code] });
      void message.success(t('connectors.dataSource.designer.saved'));
      onClose();
    },
  });
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const columns = draft.columns;
  const filters = draft.filters ?? [];
  const toggleColumn = (field: string, on: boolean) =>
    set({ columns: on ? [...columns, { field, title: field }].sort((x, y) => (list?.fields.indexOf(x.field) ?? 0) - (list?.fields.indexOf(y.field) ?? 0)) : columns.filter((c) => c.field !== field) });
  const d = (key: keyof typeof zhCNConnectors.dataSource.designer): string => t(`connectors.dataSource.designer.${key}`);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={d('title')}
      width={560}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{d('cancel')}</Button>
          <Button type="primary" loading={save.isPending} disabled={!draft.connectorCode || !draft.listOutput || !columns.length} onClick={() => save.mutate()}>{d('save')}</Button>
        </Space>
      }
    >
      <Form layout="vertical" component={false}>
        {connectors.isSuccess && !items.length && <Alert type="info" showIcon message={d('noConnectors')} style={{ marginBottom: 16 }} />}
        <Form.Item label={d('connector')} htmlFor="ds-connector" extra={d('connectorHelp')}>
          <Select
            id="ds-connector"
            virtual={false}
            loading={connectors.isLoading}
            placeholder={d('connectorPlaceholder')}
            value={draft.connectorCode || undefined}
            options={items.map((c) => ({ value: c.code, label: `${c.connectionName} / ${c.name}（${c.method}）` }))}
            onChange={(code: string) => {
              const next = items.find((c) => c.code === code);
              const first = next?.lists[0];
              set({ connectorCode: code, listOutput: first?.name ?? '', columns: (first?.fields ?? []).map((field) => ({ field, title: field })), filters: [], paging: null });
            }}
          />
        </Form.Item>
        {chosen && (
          <Form.Item label={d('listOutput')} htmlFor="ds-list">
            <Select id="ds-list" virtual={false} value={draft.listOutput || undefined} options={chosen.lists.map((l) => ({ value: l.name, label: l.name }))}
              onChange={(name: string) => set({ listOutput: name, columns: (chosen.lists.find((l) => l.name === name)?.fields ?? []).map((field) => ({ field, title: field })) })} />
          </Form.Item>
        )}
        {list && (
          <Form.Item label={d('columns')}>
            <Flex vertical gap={6}>
              {list.fields.map((field) => {
                const column = columns.find((c) => c.field === field);
                return (
                  <Flex key={field} gap="small" align="center">
                    <Checkbox checked={!!column} onChange={(e) => toggleColumn(field, e.target.checked)} style={{ width: 160 }}>
                      <Typography.Text code>{field}</Typography.Text>
                    </Checkbox>
                    <Input size="small" aria-label={`${d('columnTitle')} ${field}`} placeholder={d('columnTitle')} disabled={!column} value={column?.title ?? ''} maxLength={40}
                      onChange={(e) => set({ columns: columns.map((c) => (c.field === field ? { ...c, title: e.target.value } : c)) })} />
                  </Flex>
                );
              })}
            </Flex>
          </Form.Item>
        )}
        {chosen && (
          <Form.Item label={d('filters')}>
            <Flex vertical gap={6}>
              {filters.map((f, i) => (
                <Flex key={i} gap="small" align="center">
                  <Select size="small" aria-label={`${d('filterPlace')} ${i + 1}`} virtual={false} style={{ width: 180 }} value={f.place || undefined} placeholder={d('filterPlace')} options={places}
                    onChange={(place: string) => set({ filters: filters.map((x, j) => (j === i ? { ...x, place } : x)) })} />
                  <Input size="small" aria-label={`${d('filterLabel')} ${i + 1}`} placeholder={d('filterLabel')} value={f.label} maxLength={40}
                    onChange={(e) => set({ filters: filters.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)) })} />
                  <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t('connectors.remove')} onClick={() => set({ filters: filters.filter((_, j) => j !== i) })} />
                </Flex>
              ))}
              <Button size="small" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} disabled={filters.length >= 10} onClick={() => set({ filters: [...filters, { place: '', label: '' }] })}>{d('addFilter')}</Button>
            </Flex>
          </Form.Item>
        )}
        {chosen && (
          <Form.Item label={d('paging')}>
            <Flex vertical gap="small">
              <Switch aria-label={d('pagingOn')} checked={!!draft.paging} checkedChildren={d('pagingOn')} unCheckedChildren={d('pagingOn')} style={{ alignSelf: 'flex-start' }}
                onChange={(on) => set({ paging: on ? { pageIndexPlace: '', pageSizePlace: '', firstPage: 1, totalOutput: null } : null })} />
              {draft.paging && (
                <>
                  <Flex gap="small" align="center">
                    <Typography.Text style={{ width: 120 }}>{d('pageIndexPlace')}</Typography.Text>
                    <Select size="small" aria-label={d('pageIndexPlace')} virtual={false} style={{ width: 200 }} value={draft.paging.pageIndexPlace || undefined} options={places}
                      onChange={(pageIndexPlace: string) => set({ paging: { ...draft.paging!, pageIndexPlace } })} />
                  </Flex>
                  <Flex gap="small" align="center">
                    <Typography.Text style={{ width: 120 }}>{d('pageSizePlace')}</Typography.Text>
                    <Select size="small" aria-label={d('pageSizePlace')} virtual={false} style={{ width: 200 }} value={draft.paging.pageSizePlace || undefined} options={places}
                      onChange={(pageSizePlace: string) => set({ paging: { ...draft.paging!, pageSizePlace } })} />
                  </Flex>
                  <Flex gap="small" align="center">
                    <Typography.Text style={{ width: 120 }}>{d('firstPage')}</Typography.Text>
                    <Radio.Group size="small" value={draft.paging.firstPage ?? 1} onChange={(e) => set({ paging: { ...draft.paging!, firstPage: e.target.value as 0 | 1 } })}
                      options={[{ value: 1, label: '1' }, { value: 0, label: '0' }]} />
                  </Flex>
                  <Flex gap="small" align="center">
                    <Typography.Text style={{ width: 120 }}>{d('totalOutput')}</Typography.Text>
                    <Select size="small" aria-label={d('totalOutput')} virtual={false} style={{ width: 200 }} value={draft.paging.totalOutput ?? ''}
                      options={[{ value: '', label: d('totalNone') }, ...chosen.outputs.filter((o) => o !== draft.listOutput).map((o) => ({ value: o, label: o }))]}
                      onChange={(total: string) => set({ paging: { ...draft.paging!, totalOutput: total || null } })} />
                  </Flex>
                </>
              )}
            </Flex>
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
