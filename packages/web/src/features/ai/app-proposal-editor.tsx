import { Button, Card, Checkbox, Flex, Input, Select, Switch, Tag, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';

// The proposal's editor (docs/decisions/0126): rename the app, its forms and fields, change a field's type among the
// registry's, mark it required, remove or add fields, switch a form's approval and choose its approver. The server
// checks the result again with the registry's schemas when it is created.

type Proposal = contracts.AppProposal;
type Field = contracts.ProposedField;
type Form = contracts.ProposedForm;

const CHOICE_TYPES = new Set(['radioList', 'checkboxList', 'dropDown']);
const nameOf = (field: Field) => (typeof field.options.displayName === 'string' ? field.options.displayName : field.code);

/** A field of another type keeps its name, its required mark and (between choice types) its items. */
function retyped(field: Field, type: string): Field {
  const { displayName, required, defaultItems } = field.options;
  const options: Record<string, unknown> = { displayName, ...(required === undefined ? {} : { required }) };
  if (CHOICE_TYPES.has(type)) options.defaultItems = Array.isArray(defaultItems) && defaultItems.length ? defaultItems : ['选项1', '选项2', '选项3'];
  return { ...field, type, options };
}

/** A code the form does not use yet. */
function freshCode(form: Form): string {
  const used = new Set(form.fields.map((f) => f.code));
  let n = form.fields.length + 1;
  while (used.has(`Field${n}`)) n += 1;
  return `Field${n}`;
}

/** The proposal less a form's field: its list column and the charts that read it go too. */
function withoutField(proposal: Proposal, formIndex: number, code: string): Proposal {
  const forms = proposal.forms.map((form, i) => (i === formIndex ? { ...form, fields: form.fields.filter((f) => f.code !== code), listColumns: form.listColumns.filter((c) => c !== code) } : form));
  const dashboard = proposal.dashboard && { ...proposal.dashboard, charts: proposal.dashboard.charts.filter((c) => c.form !== formIndex || (c.groupBy !== code && c.sumField !== code)) };
  return { ...proposal, forms, dashboard };
}

export function AppProposalEditor({ proposal, onChange, controlTypes, roles }: { proposal: Proposal; onChange: (next: Proposal) => void; controlTypes: { key: string; name: string }[]; roles: string[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const setForm = (index: number, change: (form: Form) => Form) => onChange({ ...proposal, forms: proposal.forms.map((form, i) => (i === index ? change(form) : form)) });
  const setField = (formIndex: number, code: string, change: (field: Field) => Field) => setForm(formIndex, (form) => ({ ...form, fields: form.fields.map((f) => (f.code === code ? change(f) : f)) }));
  const approverValue = (form: Form) => (form.workflow?.approver.kind === 'role' ? `role:${form.workflow.approver.roleName}` : 'manager');
  const approverOf = (value: string): contracts.ProposedApprover => (value.startsWith('role:') ? { kind: 'role', roleName: value.slice(5) } : { kind: 'manager' });

  return (
    <Flex vertical gap="middle" data-testid="app-proposal">
      <Flex align="center" gap="small">
        <Typography.Text strong style={{ flex: 'none' }}>
          {t('ai.app.appName')}
        </Typography.Text>
        <Input aria-label={t('ai.app.appName')} value={proposal.appName} maxLength={50} onChange={(e) => onChange({ ...proposal, appName: e.target.value })} />
      </Flex>
      {proposal.forms.map((form, formIndex) => (
        <Card
          key={formIndex}
          size="small"
          title={<Input aria-label={t('ai.app.formName')} variant="borderless" value={form.name} maxLength={50} onChange={(e) => setForm(formIndex, (f) => ({ ...f, name: e.target.value }))} style={{ fontWeight: 600, paddingInline: 0 }} />}
          extra={form.workflow ? <Tag color="blue">{t('ai.app.workflowTag')}</Tag> : null}
        >
          <Flex vertical gap={token.marginXS}>
            {form.fields.map((field) => (
              <Flex key={field.code} gap="small" align="center" data-testid="proposal-field">
                <Input aria-label={t('ai.app.fieldName')} value={nameOf(field)} maxLength={50} style={{ flex: 2 }} onChange={(e) => setField(formIndex, field.code, (f) => ({ ...f, options: { ...f.options, displayName: e.target.value } }))} />
                <Select
                  aria-label={t('ai.app.fieldType')}
                  value={field.type}
                  style={{ flex: 1, minWidth: 110 }}
                  options={controlTypes.map((c) => ({ value: c.key, label: c.name }))}
                  onChange={(type: string) => setField(formIndex, field.code, (f) => retyped(f, type))}
                />
                <Checkbox checked={field.options.required === true} onChange={(e) => setField(formIndex, field.code, (f) => ({ ...f, options: { ...f.options, required: e.target.checked } }))}>
                  {t('ai.app.required')}
                </Checkbox>
                <Button type="text" danger aria-label={t('ai.app.removeField', { name: nameOf(field) })} icon={<DeleteOutlined />} disabled={form.fields.length <= 1} onClick={() => onChange(withoutField(proposal, formIndex, field.code))} />
              </Flex>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => setForm(formIndex, (f) => { const code = freshCode(f); return { ...f, fields: [...f.fields, { type: 'textBox', code, options: { displayName: t('ai.app.newField') } }], listColumns: [...f.listColumns, code] }; })}
            >
              {t('ai.app.addField')}
            </Button>
            <Flex gap="small" align="center" wrap>
              <Switch
                size="small"
                aria-label={t('ai.app.approval')}
                checked={!!form.workflow}
                onChange={(on) => setForm(formIndex, (f) => ({ ...f, workflow: on ? { approvalName: t('ai.app.defaultApproval'), approver: { kind: 'manager' } } : null }))}
              />
              <Typography.Text>{t('ai.app.approval')}</Typography.Text>
              {form.workflow && (
                <>
                  <Input aria-label={t('ai.app.approvalName')} value={form.workflow.approvalName} maxLength={50} style={{ width: 160 }} onChange={(e) => setForm(formIndex, (f) => ({ ...f, workflow: f.workflow && { ...f.workflow, approvalName: e.target.value } }))} />
                  <Select
                    aria-label={t('ai.app.approver')}
                    value={approverValue(form)}
                    style={{ minWidth: 180 }}
                    options={[{ value: 'manager', label: t('ai.app.manager') }, ...roles.map((r) => ({ value: `role:${r}`, label: t('ai.app.role', { role: r }) }))]}
                    onChange={(value: string) => setForm(formIndex, (f) => ({ ...f, workflow: f.workflow && { ...f.workflow, approver: approverOf(value) } }))}
                  />
                </>
              )}
            </Flex>
          </Flex>
        </Card>
      ))}
      {proposal.dashboard && (
        <Card size="small" title={t('ai.app.dashboard', { name: proposal.dashboard.name })}>
          <Flex vertical gap={token.marginXXS}>
            {proposal.dashboard.charts.map((chart, index) => (
              <Flex key={index} align="center" justify="space-between">
                <Typography.Text>
                  {chart.title} <Typography.Text type="secondary">({t(`ai.app.chart.${chart.type}`)})</Typography.Text>
                </Typography.Text>
                <Button type="text" danger size="small" aria-label={t('ai.app.removeChart', { name: chart.title })} icon={<DeleteOutlined />} onClick={() => onChange({ ...proposal, dashboard: proposal.dashboard && { ...proposal.dashboard, charts: proposal.dashboard.charts.filter((_, i) => i !== index) } })} />
              </Flex>
            ))}
            {!proposal.dashboard.charts.length && <Typography.Text type="secondary">{t('ai.app.noCharts')}</Typography.Text>}
          </Flex>
        </Card>
      )}
    </Flex>
  );
}
