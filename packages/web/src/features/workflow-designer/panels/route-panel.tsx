import { Button, Card, Flex, Input, InputNumber, Popconfirm, Radio, Segmented, Select, Switch, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CONDITION_OPERATORS, type RouteCondition } from '@tritium/shared/workflow/index';
import { NUMBER_FIELD_TYPES, useDesignContext, type FieldInfo } from '../model/design-context.ts';
import { removeRoute, updateRoute, type Route, type Template } from '../model/template-model.ts';
import { FormulaEditor } from '../../formula/formula-editor.tsx';

type Rule = RouteCondition['rules'][number];
type Operator = Rule['operator'];
const NO_VALUE: Operator[] = ['empty', 'notEmpty'];

function ValueInput({ rule, field, onChange }: { rule: Rule; field?: FieldInfo; onChange: (value: unknown) => void }) {
  const { t } = useTranslation();
  const label = t('workflowDesigner.condition.value');
  if (NO_VALUE.includes(rule.operator)) return null;
  if (rule.operator === 'in') {
    return <Select mode="tags" size="small" aria-label={label} placeholder={label} value={Array.isArray(rule.value) ? (rule.value as string[]) : []} onChange={onChange} style={{ width: '100%' }} open={false} />;
  }
  if (field && NUMBER_FIELD_TYPES.includes(field.typeKey)) {
    return <InputNumber size="small" aria-label={label} placeholder={label} value={typeof rule.value === 'number' ? rule.value : null} onChange={(v) => onChange(v ?? undefined)} style={{ width: '100%' }} />;
  }
  return <Input size="small" aria-label={label} placeholder={label} value={typeof rule.value === 'string' ? rule.value : ''} onChange={(e) => onChange(e.target.value)} />;
}

/** The filter model of a route: rules on the form's fields, all or any of which must hold. */
function ConditionEditor({ condition, onChange }: { condition: RouteCondition | undefined; onChange: (c: RouteCondition | undefined) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { fields } = useDesignContext();
  const rules = condition?.rules ?? [];
  const match = condition?.match ?? 'all';
  const set = (next: Rule[]) => onChange(next.length ? { match, rules: next } : undefined);
  const setRule = (i: number, p: Partial<Rule>) => set(rules.map((r, j) => (j === i ? { ...r, ...p } : r)));
  return (
    <Flex vertical gap="small">
      {rules.length > 1 && (
        <Radio.Group
          size="small"
          value={match}
          onChange={(e) => onChange({ match: e.target.value, rules })}
          options={(['all', 'any'] as const).map((m) => ({ value: m, label: t(`workflowDesigner.condition.match.${m}`) }))}
        />
      )}
      {rules.map((rule, i) => {
        const field = fields.find((f) => f.code === rule.field);
        return (
          <Card key={i} size="small" styles={{ body: { padding: token.paddingXS } }} aria-label={t('workflowDesigner.condition.rule', { n: i + 1 })}>
            <Flex vertical gap={4}>
              <Flex gap={4}>
                <Select
                  size="small"
                  style={{ flex: 1, minWidth: 0 }}
                  aria-label={t('workflowDesigner.condition.field')}
                  value={rule.field}
                  onChange={(code: string) => setRule(i, { field: code })}
                  options={fields.map((f) => ({ value: f.code, label: f.name }))}
                />
                <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('workflowDesigner.condition.removeRule')} onClick={() => set(rules.filter((_, j) => j !== i))} />
              </Flex>
              <Select
                size="small"
                aria-label={t('workflowDesigner.condition.operator')}
                value={rule.operator}
                onChange={(operator: Operator) => setRule(i, { operator, ...(NO_VALUE.includes(operator) ? { value: undefined } : {}) })}
                options={CONDITION_OPERATORS.map((o) => ({ value: o, label: t(`workflowDesigner.condition.operators.${o}`) }))}
              />
              <ValueInput rule={rule} field={field} onChange={(value) => setRule(i, { value })} />
            </Flex>
          </Card>
        );
      })}
      <Button size="small" icon={<PlusOutlined />} disabled={!fields.length || rules.length >= 20} onClick={() => set([...rules, { field: fields[0].code, operator: 'eq', value: undefined }])}>
        {t('workflowDesigner.condition.addRule')}
      </Button>
    </Flex>
  );
}

/** The selected route: its condition or else (on branch nodes), and its removal. */
export function RoutePanel({ route, template, edit, onRemoved }: { route: Route; template: Template; edit: (c: (t: Template) => Template) => void; onRemoved: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const source = template.activities.find((a) => a.code === route.from);
  const nameOf = (code: string) => template.activities.find((a) => a.code === code)?.name ?? code;
  const branches = source?.type === 'Condition' || source?.type === 'Parallel';
  const patch = (p: Partial<Route>) => edit((tpl) => updateRoute(tpl, route.from, route.to, p));
  const { fields, schemaCode } = useDesignContext();
  // A route opens on the way its condition is written; a route without one starts with field rules.
  const [mode, setMode] = useState<'rules' | 'formula'>(route.formula && !route.condition ? 'formula' : 'rules');
  return (
    <Flex vertical gap="small" style={{ padding: token.padding }} role="form" aria-label={t('workflowDesigner.panel.route')}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('workflowDesigner.panel.route')}
      </Typography.Title>
      <Typography.Text>
        {nameOf(route.from)} → {nameOf(route.to)}
      </Typography.Text>
      {source?.type === 'Condition' && (
        <Flex align="center" gap="small">
          <Switch size="small" checked={route.isElse} aria-label={t('workflowDesigner.condition.else')} onChange={(isElse) => patch({ isElse })} />
          <Typography.Text>{t('workflowDesigner.condition.else')}</Typography.Text>
        </Flex>
      )}
      {branches && !route.isElse && (
        <>
          <Typography.Text type="secondary">{t(source?.type === 'Parallel' ? 'workflowDesigner.condition.parallelHint' : 'workflowDesigner.condition.hint')}</Typography.Text>
          <Segmented
            aria-label={t('workflowDesigner.condition.mode.label')}
            value={mode}
            onChange={(next) => setMode(next as 'rules' | 'formula')}
            options={(['rules', 'formula'] as const).map((m) => ({ value: m, label: t(`workflowDesigner.condition.mode.${m}`) }))}
          />
          {mode === 'rules' ? (
            <ConditionEditor condition={route.condition} onChange={(condition) => patch({ condition })} />
          ) : (
            <>
              <Typography.Text type="secondary">{t('workflowDesigner.condition.formulaHint')}</Typography.Text>
              <FormulaEditor
                ariaLabel={t('workflowDesigner.condition.formula')}
                value={route.formula ?? ''}
                onChange={(formula) => patch({ formula: formula.trim() ? formula : undefined })}
                fields={fields.map((f) => ({ ref: f.code, label: f.name }))}
                validateWith={schemaCode ? { schemaCode, bindType: 'bool' } : undefined}
                placeholder={t('workflowDesigner.condition.formulaPlaceholder')}
              />
            </>
          )}
        </>
      )}
      {!branches && <Typography.Text type="secondary">{t('workflowDesigner.condition.plain')}</Typography.Text>}
      <Popconfirm title={t('workflowDesigner.panel.removeRouteConfirm')} onConfirm={() => (edit((tpl) => removeRoute(tpl, route.from, route.to)), onRemoved())}>
        <Button danger icon={<DeleteOutlined />} style={{ marginTop: token.marginLG, alignSelf: 'flex-start' }}>
          {t('workflowDesigner.panel.removeRoute')}
        </Button>
      </Popconfirm>
    </Flex>
  );
}

/** A route's condition in words, for its label on the canvas. */
export function describeRoute(route: Route, fields: FieldInfo[], t: TFunction): string {
  if (route.isElse) return t('workflowDesigner.condition.elseShort');
  const formula = route.formula ? (route.formula.length > 30 ? `${route.formula.slice(0, 30)}…` : route.formula) : '';
  if (!route.condition) return formula;
  const parts = route.condition.rules.map((r) => {
    const name = fields.find((f) => f.code === r.field)?.name ?? r.field;
    const value = NO_VALUE.includes(r.operator) ? '' : ` ${Array.isArray(r.value) ? r.value.join('、') : String(r.value ?? '')}`;
    return `${name} ${t(`workflowDesigner.condition.operators.${r.operator}`)}${value}`;
  });
  const rules = parts.join(route.condition.match === 'all' ? t('workflowDesigner.condition.and') : t('workflowDesigner.condition.or'));
  return formula ? `${rules}${t('workflowDesigner.condition.and')}${formula}` : rules;
}
