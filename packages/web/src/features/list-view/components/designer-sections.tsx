import { Button, Card, Flex, Input, InputNumber, Select, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { VIEW_ACTIONS_MAX } from '@tritium/shared/constants/limits';
import type { ViewField, ViewSetting } from '../api/list-view-api.ts';

// Sections of the view designer: columns (order, width, fixed), default sort, filters offered, quick search,
// statistics and the toolbar's actions.

interface SectionProps {
  view: ViewSetting;
  fields: ViewField[];
  onChange: (patch: Partial<ViewSetting>) => void;
}

const move = <T,>(list: T[], i: number, j: number) => {
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
};

export function ColumnsSection({ view, fields, onChange }: SectionProps) {
  const { t } = useTranslation();
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const unused = fields.filter((f) => !view.columns.some((c) => c.field === f.code));
  const set = (i: number, patch: Partial<ViewSetting['columns'][number]>) => onChange({ columns: view.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  return (
    <Card size="small" title={t('listView.designer.columns')}>
      <Flex vertical gap={4}>
        {view.columns.map((c, i) => (
          <Flex key={c.field} gap="small" align="center" role="group" aria-label={byCode.get(c.field)?.title ?? c.field}>
            <Typography.Text style={{ width: 140 }} ellipsis>{byCode.get(c.field)?.title ?? c.field}</Typography.Text>
            <InputNumber aria-label={t('listView.designer.width')} placeholder={t('listView.designer.width')} min={40} max={800} value={c.width ?? null} onChange={(width) => set(i, { width: width ?? undefined })} style={{ width: 110 }} />
            <Select aria-label={t('listView.designer.fixed')} value={c.fixed ?? 'none'} style={{ width: 110 }} onChange={(v: string) => set(i, { fixed: v === 'none' ? null : (v as 'left' | 'right') })}
              options={(['none', 'left', 'right'] as const).map((v) => ({ value: v, label: t(`listView.designer.fixedOption.${v}`) }))} />
            <Button size="small" icon={<ArrowUpOutlined />} disabled={i === 0} aria-label={t('listView.designer.up')} onClick={() => onChange({ columns: move(view.columns, i, i - 1) })} />
            <Button size="small" icon={<ArrowDownOutlined />} disabled={i === view.columns.length - 1} aria-label={t('listView.designer.down')} onClick={() => onChange({ columns: move(view.columns, i, i + 1) })} />
            <Button size="small" icon={<DeleteOutlined />} disabled={view.columns.length < 2} aria-label={t('listView.designer.remove')} onClick={() => onChange({ columns: view.columns.filter((_, j) => j !== i) })} />
          </Flex>
        ))}
        {unused.length > 0 && (
          <Select aria-label={t('listView.designer.addColumn')} placeholder={t('listView.designer.addColumn')} value={null} style={{ width: 240 }}
            onChange={(code: string) => onChange({ columns: [...view.columns, { field: code }] })} options={unused.map((f) => ({ value: f.code, label: f.title }))} />
        )}
      </Flex>
    </Card>
  );
}

export function ListSection({ view, fields, onChange }: SectionProps) {
  const { t } = useTranslation();
  const option = (f: ViewField) => ({ value: f.code, label: f.title });
  const sortable = fields.filter((f) => f.sortable).map(option);
  const texts = fields.filter((f) => f.dataType === 'string' || f.dataType === 'text').map(option);
  const numbers = fields.filter((f) => f.dataType === 'decimal' || f.dataType === 'int').map(option);
  const statValue = view.stats.map((s) => `${s.field}:${s.type}`);
  const statOptions = numbers.flatMap((n) => (['sum', 'avg', 'min', 'max', 'count'] as const).map((type) => ({ value: `${n.value}:${type}`, label: `${n.label} · ${t(`listView.stats.${type}`)}` })));
  const setAction = (i: number, patch: Partial<ViewSetting['actions'][number]>) => onChange({ actions: view.actions.map((a, j) => (j === i ? { ...a, ...patch } : a)) });
  return (
    <>
      <Card size="small" title={t('listView.designer.sortAndFilters')}>
        <Flex vertical gap="small">
          <Flex gap="small" align="center" wrap>
            <Typography.Text style={{ width: 90 }}>{t('listView.designer.sort')}</Typography.Text>
            {view.sort.map((s, i) => (
              <Flex key={i} gap={4}>
                <Select aria-label={t('listView.designer.sortField', { index: i + 1 })} value={s.field} style={{ width: 140 }} options={sortable} onChange={(field: string) => onChange({ sort: view.sort.map((x, j) => (j === i ? { ...x, field } : x)) })} />
                <Select aria-label={t('listView.designer.sortDirection', { index: i + 1 })} value={s.direction} style={{ width: 90 }} onChange={(direction: 'asc' | 'desc') => onChange({ sort: view.sort.map((x, j) => (j === i ? { ...x, direction } : x)) })}
                  options={[{ value: 'asc', label: t('listView.designer.asc') }, { value: 'desc', label: t('listView.designer.desc') }]} />
                <Button icon={<DeleteOutlined />} aria-label={t('listView.designer.remove')} onClick={() => onChange({ sort: view.sort.filter((_, j) => j !== i) })} />
              </Flex>
            ))}
            {view.sort.length < 3 && sortable.length > 0 && <Button icon={<PlusOutlined />} onClick={() => onChange({ sort: [...view.sort, { field: String(sortable[0].value), direction: 'asc' }] })}>{t('listView.designer.addSort')}</Button>}
          </Flex>
          <Flex gap="small" align="center">
            <Typography.Text style={{ width: 90 }}>{t('listView.designer.filters')}</Typography.Text>
            <Select aria-label={t('listView.designer.filters')} mode="multiple" value={view.filters} style={{ flex: 1 }} options={fields.map(option)} onChange={(filters: string[]) => onChange({ filters })} />
          </Flex>
          <Flex gap="small" align="center">
            <Typography.Text style={{ width: 90 }}>{t('listView.designer.quickSearch')}</Typography.Text>
            <Select aria-label={t('listView.designer.quickSearch')} mode="multiple" maxCount={10} value={view.quickSearch} style={{ flex: 1 }} options={texts} onChange={(quickSearch: string[]) => onChange({ quickSearch })} />
          </Flex>
          <Flex gap="small" align="center">
            <Typography.Text style={{ width: 90 }}>{t('listView.designer.stats')}</Typography.Text>
            <Select aria-label={t('listView.designer.stats')} mode="multiple" value={statValue} style={{ flex: 1 }} options={statOptions}
              onChange={(list: string[]) => onChange({ stats: list.map((v) => { const [field, type] = v.split(':'); return { field, type: type as 'sum' }; }) })} />
          </Flex>
        </Flex>
      </Card>
      <Card size="small" title={t('listView.designer.actions', { max: VIEW_ACTIONS_MAX })}>
        <Flex vertical gap={4}>
          {view.actions.map((a, i) => (
            <Flex key={a.code} gap="small" align="center">
              <Input aria-label={t('listView.designer.actionTitle', { index: i + 1 })} value={a.title} maxLength={50} style={{ width: 140 }} onChange={(e) => setAction(i, { title: e.target.value })} />
              <Select aria-label={t('listView.designer.actionType', { index: i + 1 })} value={a.type} style={{ width: 120 }} onChange={(type: typeof a.type) => setAction(i, { type })}
                options={(['Create', 'BatchEdit', 'Delete', 'Refresh', 'Link', 'Script'] as const).map((v) => ({ value: v, label: t(`listView.designer.actionTypes.${v}`) }))} />
              {a.type === 'Link' && <Input aria-label={t('listView.designer.actionUrl')} placeholder="https://" value={a.url ?? ''} style={{ flex: 1 }} onChange={(e) => setAction(i, { url: e.target.value })} />}
              {a.type === 'Script' && (
                <Input aria-label={t('listView.designer.actionName')} title={t('listView.designer.actionNameHint')} placeholder={t('listView.designer.actionName')} value={a.actionName ?? ''} maxLength={100} style={{ flex: 1 }}
                  onChange={(e) => setAction(i, { actionName: e.target.value || undefined })} />
              )}
              <Button icon={<DeleteOutlined />} aria-label={t('listView.designer.remove')} onClick={() => onChange({ actions: view.actions.filter((_, j) => j !== i) })} />
            </Flex>
          ))}
          {view.actions.length < VIEW_ACTIONS_MAX && (
            <Button icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} onClick={() => onChange({ actions: [...view.actions, { code: `A${Date.now().toString(36)}`, title: t('listView.designer.actionTypes.Refresh'), type: 'Refresh' }] })}>
              {t('listView.designer.addAction')}
            </Button>
          )}
        </Flex>
      </Card>
    </>
  );
}
