import { Button, Card, Flex, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { STYLE_PALETTE } from '@tritium/shared/constants/formats';
import type { FilterOperator } from '@tritium/shared/constants/formats';
import type { FilterLeaf } from '@tritium/shared/query/index';
import type { ViewField, ViewSetting } from '../api/list-view-api.ts';
import { FilterValueInput } from '../../../components/filter-editor/filter-value-input.tsx';

/** Style rules: a condition on one field, one of the 20 palette colours, on the whole row or one column's cells. */
export function StyleRulesSection({ view, fields, onChange }: { view: ViewSetting; fields: ViewField[]; onChange: (patch: Partial<ViewSetting>) => void }) {
  const { t } = useTranslation();
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const rules = view.styleRules;
  const set = (i: number, patch: Partial<ViewSetting['styleRules'][number]>) => onChange({ styleRules: rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const first = fields.find((f) => f.operators.includes('Equal')) ?? fields[0];
  return (
    <Card size="small" title={t('listView.designer.styleRules')}>
      <Flex vertical gap={4}>
        {rules.map((rule, i) => {
          const leaf = ('children' in rule.filter ? rule.filter.children[0] : rule.filter) as FilterLeaf | undefined;
          const field = leaf ? byCode.get(leaf.field) : undefined;
          const setLeaf = (patch: Partial<FilterLeaf>) => set(i, { filter: { ...(leaf as FilterLeaf), ...patch } as FilterLeaf });
          return (
            <Flex key={i} gap="small" align="center" role="group" aria-label={t('listView.designer.styleRule', { index: i + 1 })}>
              <Select aria-label={t('listView.filter.field', { index: i + 1 })} value={leaf?.field} style={{ width: 120 }} options={fields.map((f) => ({ value: f.code, label: f.title }))}
                onChange={(code: string) => set(i, { filter: { field: code, operator: byCode.get(code)!.operators[0] as FilterOperator } })} />
              {field && leaf && (
                <>
                  <Select aria-label={t('listView.filter.operator', { index: i + 1 })} value={leaf.operator} style={{ width: 100 }} options={field.operators.filter((o) => o !== 'Dynamic').map((o) => ({ value: o, label: t(`listView.operators.${o as FilterOperator}`) }))}
                    onChange={(operator: FilterOperator) => setLeaf({ operator, value: undefined })} />
                  <div style={{ width: 160 }}><FilterValueInput field={field} operator={leaf.operator} value={leaf.value} onChange={(value) => setLeaf({ value: value as FilterLeaf['value'] })} label={t('listView.filter.value', { index: i + 1 })} /></div>
                </>
              )}
              <Select aria-label={t('listView.designer.colour')} value={rule.color} style={{ width: 80 }} popupMatchSelectWidth={false}
                options={STYLE_PALETTE.map((c, n) => ({ value: n, label: <span style={{ display: 'inline-block', width: 36, height: 14, background: c, borderRadius: 3, verticalAlign: 'middle' }} aria-label={`${n + 1}`} /> }))}
                onChange={(color: number) => set(i, { color })} />
              <Select aria-label={t('listView.designer.target')} value={rule.field ?? ''} style={{ width: 120 }} onChange={(v: string) => set(i, { field: v || undefined })}
                options={[{ value: '', label: t('listView.designer.wholeRow') }, ...view.columns.map((c) => ({ value: c.field, label: byCode.get(c.field)?.title ?? c.field }))]} />
              <Button icon={<DeleteOutlined />} aria-label={t('listView.designer.remove')} onClick={() => onChange({ styleRules: rules.filter((_, j) => j !== i) })} />
            </Flex>
          );
        })}
        {first && (
          <Button icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} onClick={() => onChange({ styleRules: [...rules, { filter: { field: first.code, operator: first.operators[0] as FilterOperator }, color: 0 }] })}>
            {t('listView.designer.addStyleRule')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
