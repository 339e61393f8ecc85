import { Button, Checkbox, Divider, Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COMPARE_PERIODS, DATE_GROUPS, MEASURE_AGGREGATES, REPORT_LIMITS, STATIC_WIDGET_TYPES, WIDGET_DIMENSION_TYPE, WIDGET_TYPES, type ReportMeasure, type Widget,
} from '@tritium/shared/report/index';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { ConditionRows } from '../../../components/filter-editor/condition-rows.tsx';
import { fromFilter, toFilter } from '../../../components/filter-editor/conditions.ts';
import { appFeatures, dashboardApi } from '../api/dashboard-api.ts';
import type { contracts } from '@tritium/shared';

type ViewField = contracts.ViewField;
const FORM_TYPES: readonly number[] = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule];
const DISTINCT_TYPES = ['string', 'text', 'decimal', 'int', 'datetime', 'bool', 'user', 'unit', 'reference'];
/** An area field groups by province. */
const DIMENSION_TYPES = [...DISTINCT_TYPES, 'address'];
const NUMBER_TYPES = ['decimal', 'int'];

/** The fields a widget may name: the form's (and, on a sub-table widget, that sub-table's columns). */
export function useFields(schemaCode: string | undefined) {
  return useQuery({
    queryKey: ['dashboard', 'fields', schemaCode],
    queryFn: () => dashboardApi.fields(schemaCode!),
    enabled: !!schemaCode,
  });
}

/** One widget's settings: type, title, source, dimensions, measures, filter, sort, top N, totals, comparison. */
export function WidgetEditor({ widget, appCode, onChange }: { widget: Widget; appCode: string; onChange: (next: Widget) => void }) {
  const { t } = useTranslation();
  const forms = useQuery({ queryKey: ['dashboard', 'forms', appCode], queryFn: () => appFeatures(appCode), select: (r) => r.list.filter((n) => FORM_TYPES.includes(n.nodeType)) });
  const fields = useFields(widget.source?.schemaCode);
  const list = fields.data?.fields ?? [];
  const set = (patch: Partial<Widget>) => onChange({ ...widget, ...patch });
  const grid = widget.source?.gridCode;
  // Main fields always; a sub-table widget adds its own sub-table's columns.
  const all = list.filter((f) => (f.code.includes('.') ? !!grid && f.code.startsWith(`${grid}.`) : true));
  const grids = fields.data?.grids ?? [];
  const option = (f: ViewField) => ({ value: f.code, label: f.title || f.code });
  // A map takes one area field; other widgets any field that groups.
  const needed = WIDGET_DIMENSION_TYPE[widget.type];
  const dimensionFields = all.filter((f) => (needed ? f.dataType === needed : DIMENSION_TYPES.includes(f.dataType))).map(option);
  const maxDimensions = needed ? 1 : REPORT_LIMITS.dimensions;
  const typeOf = (code: string) => all.find((f) => f.code === code)?.dataType;
  const isStatic = STATIC_WIDGET_TYPES.includes(widget.type);
  const setMeasure = (i: number, patch: Partial<ReportMeasure>) => set({ measures: widget.measures.map((m, j) => (j === i ? ({ ...m, ...patch } as ReportMeasure) : m)) });

  return (
    <Form layout="vertical" size="small" aria-label={t('dashboard.designer.widgetSettings')}>
      <Form.Item label={t('dashboard.designer.type')}>
        <Select aria-label={t('dashboard.designer.type')} value={widget.type} options={WIDGET_TYPES.map((w) => ({ value: w, label: t(`dashboard.types.${w}`) }))} onChange={(type) => set({ type, ...(WIDGET_DIMENSION_TYPE[type] ? { dimensions: widget.dimensions.filter((d) => typeOf(d.field) === WIDGET_DIMENSION_TYPE[type]).slice(0, 1) } : {}) })} />
      </Form.Item>
      <Form.Item label={t('dashboard.designer.title')}>
        <Input aria-label={t('dashboard.designer.title')} value={widget.title} maxLength={50} onChange={(e) => set({ title: e.target.value })} />
      </Form.Item>
      {(widget.type === 'text' || widget.type === 'link') && (
        <Form.Item label={t(widget.type === 'text' ? 'dashboard.designer.text' : 'dashboard.designer.caption')}>
          <Input.TextArea aria-label={t('dashboard.designer.text')} value={widget.text} rows={widget.type === 'text' ? 4 : 1} maxLength={2000} onChange={(e) => set({ text: e.target.value })} />
        </Form.Item>
      )}
      {widget.type === 'link' && (
        <Form.Item label={t('dashboard.designer.url')}>
          <Input aria-label={t('dashboard.designer.url')} value={widget.url} placeholder="https://" onChange={(e) => set({ url: e.target.value || undefined })} />
        </Form.Item>
      )}
      {!isStatic && (
        <>
          <Form.Item label={t('dashboard.designer.source')}>
            <Select
              aria-label={t('dashboard.designer.source')}
              value={widget.source?.schemaCode}
              placeholder={t('dashboard.designer.sourcePlaceholder')}
              options={(forms.data ?? []).map((n) => ({ value: n.code, label: n.displayName }))}
              onChange={(schemaCode) => set({ source: { schemaCode }, dimensions: [], measures: [{ aggregate: 'count' }], filter: undefined, compare: undefined, sort: undefined })}
            />
          </Form.Item>
          {grids.length > 0 && (
            <Form.Item label={t('dashboard.designer.grid')}>
              <Select
                allowClear
                aria-label={t('dashboard.designer.grid')}
                value={grid}
                placeholder={t('dashboard.designer.gridNone')}
                options={grids.map((g) => ({ value: g.code, label: g.title }))}
                onChange={(gridCode?: string) => set({ source: { ...widget.source!, gridCode }, dimensions: [], measures: [{ aggregate: 'count' }] })}
              />
            </Form.Item>
          )}
          {widget.source && (
            <Form.Item extra={t('dashboard.designer.includeDraftsHint')}>
              <Checkbox checked={!!widget.source.includeDrafts} onChange={(e) => set({ source: { ...widget.source!, includeDrafts: e.target.checked || undefined } })}>
                {t('dashboard.designer.includeDrafts')}
              </Checkbox>
            </Form.Item>
          )}
          {widget.type !== 'number' && widget.type !== 'gauge' && (
            <>
              <Divider titlePlacement="start" plain>{t('dashboard.designer.dimensions')}</Divider>
              {widget.dimensions.map((d, i) => (
                <Flex key={i} gap={4} style={{ marginBottom: 6 }}>
                  <Select
                    aria-label={t('dashboard.designer.dimension', { n: i + 1 })}
                    style={{ flex: 1, minWidth: 0 }}
                    value={d.field}
                    options={dimensionFields}
                    onChange={(field) => set({ dimensions: widget.dimensions.map((x, j) => (j === i ? { field, ...(typeOf(field) === 'datetime' ? { dateGroup: 'month' as const } : {}) } : x)) })}
                  />
                  {typeOf(d.field) === 'datetime' && (
                    <Select
                      aria-label={t('dashboard.designer.dateGroup')}
                      style={{ width: 76 }}
                      value={d.dateGroup ?? 'day'}
                      options={DATE_GROUPS.map((g) => ({ value: g, label: t(`dashboard.dateGroups.${g}`) }))}
                      onChange={(dateGroup) => set({ dimensions: widget.dimensions.map((x, j) => (j === i ? { ...x, dateGroup } : x)) })}
                    />
                  )}
                  {typeOf(d.field) === 'unit' && (
                    <Select
                      aria-label={t('dashboard.designer.departmentLevel')}
                      style={{ width: 96 }}
                      value={d.departmentLevel ?? 0}
                      options={[0, 1, 2, 3, 4, 5].map((level) => ({ value: level, label: level ? t('dashboard.designer.level', { level }) : t('dashboard.designer.levelNone') }))}
                      onChange={(level: number) => set({ dimensions: widget.dimensions.map((x, j) => (j === i ? { field: x.field, ...(x.label ? { label: x.label } : {}), ...(level ? { departmentLevel: level } : {}) } : x)) })}
                    />
                  )}
                  <Button aria-label={t('dashboard.designer.remove')} icon={<DeleteOutlined />} onClick={() => set({ dimensions: widget.dimensions.filter((_, j) => j !== i) })} />
                </Flex>
              ))}
              {needed && !dimensionFields.length && <Typography.Text type="secondary">{t('dashboard.designer.mapNeedsArea')}</Typography.Text>}
              {widget.dimensions.length < maxDimensions && dimensionFields.length > 0 && (
                <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => set({ dimensions: [...widget.dimensions, { field: dimensionFields[0]!.value, ...(typeOf(dimensionFields[0]!.value) === 'datetime' ? { dateGroup: 'month' as const } : {}) }] })}>
                  {t('dashboard.designer.addDimension')}
                </Button>
              )}
            </>
          )}
          <Divider titlePlacement="start" plain>{t('dashboard.designer.measures')}</Divider>
          {widget.measures.map((m, i) => {
            const candidates = all.filter((f) => (m.aggregate === 'count' || m.aggregate === 'distinct' ? DISTINCT_TYPES : NUMBER_TYPES).includes(f.dataType)).map(option);
            return (
              <Flex key={i} vertical gap={4} style={{ marginBottom: 8 }}>
                <Flex gap={4}>
                  <Select
                    aria-label={t('dashboard.designer.aggregate', { n: i + 1 })}
                    style={{ width: 96 }}
                    value={m.aggregate}
                    options={MEASURE_AGGREGATES.map((a) => ({ value: a, label: t(`dashboard.aggregates.${a}`) }))}
                    onChange={(aggregate) => setMeasure(i, { aggregate, field: aggregate === 'count' ? undefined : m.field })}
                  />
                  <Select
                    allowClear={m.aggregate === 'count'}
                    aria-label={t('dashboard.designer.measureField', { n: i + 1 })}
                    style={{ flex: 1, minWidth: 0 }}
                    value={m.field}
                    placeholder={m.aggregate === 'count' ? t('dashboard.designer.records') : undefined}
                    options={candidates}
                    onChange={(field?: string) => setMeasure(i, { field })}
                  />
                  <Button aria-label={t('dashboard.designer.remove')} icon={<DeleteOutlined />} disabled={widget.measures.length === 1} onClick={() => set({ measures: widget.measures.filter((_, j) => j !== i) })} />
                </Flex>
                <Flex gap={4}>
                  <Input aria-label={t('dashboard.designer.measureLabel')} placeholder={t('dashboard.designer.measureLabel')} value={m.label} maxLength={50} onChange={(e) => setMeasure(i, { label: e.target.value || undefined })} />
                  <InputNumber aria-label={t('dashboard.designer.decimals')} placeholder={t('dashboard.designer.decimals')} min={0} max={6} value={m.format?.decimals} onChange={(decimals) => setMeasure(i, { format: { thousands: true, percent: false, ...m.format, decimals: decimals ?? 0 } })} style={{ width: 80 }} />
                  <Input aria-label={t('dashboard.designer.unit')} placeholder={t('dashboard.designer.unit')} value={m.format?.unit} maxLength={10} style={{ width: 72 }} onChange={(e) => setMeasure(i, { format: { decimals: 0, thousands: true, percent: false, ...m.format, unit: e.target.value || undefined } })} />
                </Flex>
              </Flex>
            );
          })}
          {widget.measures.length < REPORT_LIMITS.measures && (
            <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => set({ measures: [...widget.measures, { aggregate: 'count' }] })}>
              {t('dashboard.designer.addMeasure')}
            </Button>
          )}
          <Divider titlePlacement="start" plain>{t('dashboard.designer.more')}</Divider>
          {widget.type === 'number' && (
            <Form.Item label={t('dashboard.designer.compare')}>
              <Flex gap={4}>
                <Select
                  allowClear
                  aria-label={t('dashboard.designer.compareField')}
                  style={{ flex: 1 }}
                  value={widget.compare?.dateField}
                  options={all.filter((f) => f.dataType === 'datetime').map(option)}
                  onChange={(dateField?: string) => set({ compare: dateField ? { dateField, period: widget.compare?.period ?? 'month' } : undefined })}
                />
                <Select
                  aria-label={t('dashboard.designer.comparePeriod')}
                  style={{ width: 80 }}
                  disabled={!widget.compare}
                  value={widget.compare?.period ?? 'month'}
                  options={COMPARE_PERIODS.map((p) => ({ value: p, label: t(`dashboard.dateGroups.${p}`) }))}
                  onChange={(period) => widget.compare && set({ compare: { ...widget.compare, period } })}
                />
              </Flex>
            </Form.Item>
          )}
          {widget.type === 'gauge' && (
            <Form.Item label={t('dashboard.designer.gaugeMax')}>
              <InputNumber aria-label={t('dashboard.designer.gaugeMax')} min={0} value={widget.gaugeMax} onChange={(v) => set({ gaugeMax: v && v > 0 ? v : undefined })} style={{ width: '100%' }} />
            </Form.Item>
          )}
          {widget.dimensions.length > 0 && (
            <>
              <Form.Item label={t('dashboard.designer.sort')}>
                <Select
                  aria-label={t('dashboard.designer.sort')}
                  value={widget.sort ? `${widget.sort.by}:${widget.sort.index}:${widget.sort.direction}` : ''}
                  options={[
                    { value: '', label: t('dashboard.designer.sortDefault') },
                    ...widget.measures.flatMap((m, i) => (['desc', 'asc'] as const).map((dir) => ({ value: `measure:${i}:${dir}`, label: `${m.label || t(`dashboard.aggregates.${m.aggregate}`)} ${t(`dashboard.designer.${dir}`)}` }))),
                  ]}
                  onChange={(v: string) => {
                    const [by, index, direction] = v.split(':');
                    set({ sort: v ? { by: by as 'measure', index: Number(index), direction: direction as 'asc' | 'desc' } : undefined });
                  }}
                />
              </Form.Item>
              <Form.Item label={t('dashboard.designer.topN')}>
                <InputNumber aria-label={t('dashboard.designer.topN')} min={1} max={REPORT_LIMITS.topN} value={widget.topN} onChange={(v) => set({ topN: v ?? undefined })} style={{ width: '100%' }} />
              </Form.Item>
              {(widget.type === 'table' || widget.type === 'pivot') && (
                <Checkbox checked={widget.totals} onChange={(e) => set({ totals: e.target.checked })}>
                  {t('dashboard.designer.totals')}
                </Checkbox>
              )}
            </>
          )}
          <Typography.Text strong style={{ display: 'block', marginTop: 12 }}>
            {t('dashboard.designer.filter')}
          </Typography.Text>
          <ConditionRows fields={all} conditions={fromFilter(widget.filter)} onChange={(rows) => set({ filter: toFilter(rows) })} />
        </>
      )}
    </Form>
  );
}
