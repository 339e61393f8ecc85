import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../lib/i18n.ts';
import { DesignContext, type FieldInfo } from '../model/design-context.ts';
import { emptyTemplate, insertAfter, type Template } from '../model/template-model.ts';
import { ActivityPanel } from './activity-panel.tsx';
import { RoutePanel, describeRoute } from './route-panel.tsx';
import { EditorView } from '@codemirror/view';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';

// The property panels edit the template they are given (docs/decisions/0018): each test renders one panel over a
// live template and reads the template back.

const FIELDS: FieldInfo[] = [
  { code: 'Title', name: '事由', typeKey: 'textBox' },
  { code: 'Amount', name: '金额', typeKey: 'number' },
  { code: 'Approver', name: '审批人', typeKey: 'user' },
];

function start(): Template {
  let t = emptyTemplate({ start: '开始', end: '结束' });
  t = insertAfter(t, 'Start', 'Approve', '审批').template;
  return insertAfter(t, 'Approve1', 'Condition', '条件分支').template;
}

function Harness({ onChange, show }: { onChange: (t: Template) => void; show: (t: Template, edit: (c: (t: Template) => Template) => void) => React.ReactNode }) {
  const [template, setTemplate] = useState(start);
  const edit = (change: (t: Template) => Template) =>
    setTemplate((current) => {
      const next = change(current);
      onChange(next);
      return next;
    });
  return (
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <DesignContext.Provider value={{ schemaCode: 'expense', fields: FIELDS, names: {}, remember: () => {} }}>{show(template, edit)}</DesignContext.Provider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}

function renderPanel(show: (t: Template, edit: (c: (t: Template) => Template) => void) => React.ReactNode) {
  const seen: { template?: Template } = {};
  render(<Harness onChange={(t) => (seen.template = t)} show={show} />);
  return seen;
}

const approve = (t: Template) => t.activities.find((a) => a.code === 'Approve1') as Extract<Template['activities'][number], { type: 'Approve' }>;

describe('the activity panel', () => {
  it('renames the node, adds a participant source and changes the field permissions', async () => {
    const seen = renderPanel((t, edit) => <ActivityPanel activity={approve(t)} template={t} issues={[]} edit={edit} onRemoved={() => {}} />);
    fireEvent.change(screen.getByRole('textbox', { name: '节点名称' }), { target: { value: '部门经理' } });
    expect(approve(seen.template!).name).toBe('部门经理');

    fireEvent.click(screen.getByRole('button', { name: /添加参与者/ }));
    fireEvent.click(await screen.findByText('发起人'));
    expect(approve(seen.template!).participants.sources).toEqual([{ type: 'originator' }]);

    fireEvent.click(screen.getByRole('checkbox', { name: '金额 必填' }));
    expect(approve(seen.template!).fieldPermissions.Amount).toEqual({ visible: true, editable: true, required: true });
    expect(screen.getByRole('checkbox', { name: '退回' })).toHaveProperty('checked', true);
    fireEvent.click(screen.getByRole('checkbox', { name: '转交' }));
    expect(approve(seen.template!).permittedActions).toEqual(['sendBack']);
  });

  it('sets the node\'s time limit: hours or working days, what the timeout does, and urges', async () => {
    const seen = renderPanel((t, edit) => <ActivityPanel activity={approve(t)} template={t} issues={[]} edit={edit} onRemoved={() => {}} />);
    expect(screen.queryByRole('spinbutton', { name: '时限' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: /设置办理时限/ }));
    expect(approve(seen.template!).timeLimit).toEqual({ amount: 24, unit: 'hours', onTimeout: 'remind' });
    fireEvent.change(screen.getByRole('spinbutton', { name: '时限' }), { target: { value: '1' } });
    expect(approve(seen.template!).timeLimit).toMatchObject({ amount: 1, unit: 'hours' });

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '超时后' }));
    fireEvent.click(await screen.findByText('转交处理人的部门主管'));
    expect(approve(seen.template!).timeLimit).toMatchObject({ amount: 1, onTimeout: 'escalate' });

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '时限单位' }));
    fireEvent.click(await screen.findByText('工作日'));
    expect(approve(seen.template!).timeLimit).toMatchObject({ amount: 1, unit: 'workingDays' });
    expect(screen.getByText('工作日按周一至周五（北京时间）计算')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: /定时催办/ }));
    fireEvent.change(screen.getByRole('spinbutton', { name: '催办间隔（小时）' }), { target: { value: '2' } });
    expect(approve(seen.template!).timeLimit).toEqual({ amount: 1, unit: 'workingDays', onTimeout: 'escalate', urgeEveryHours: 2 });

    fireEvent.click(screen.getByRole('checkbox', { name: /设置办理时限/ }));
    expect(approve(seen.template!).timeLimit).toBeNull();
  });

  it('shows an older timeLimitHours as hours with a reminder and saves it as a timeLimit', () => {
    const seen = renderPanel((t, edit) => {
      // A node saved before time limits were enforced, until the panel writes its first timeLimit.
      const a = approve(t);
      const old = a.timeLimit === undefined ? { ...a, timeLimitHours: 8 } : a;
      return <ActivityPanel activity={old} template={t} issues={[]} edit={edit} onRemoved={() => {}} />;
    });
    expect((screen.getByRole('spinbutton', { name: '时限' }) as HTMLInputElement).value).toBe('8.0');
    fireEvent.change(screen.getByRole('spinbutton', { name: '时限' }), { target: { value: '6' } });
    const a = approve(seen.template!);
    expect(a.timeLimit).toEqual({ amount: 6, unit: 'hours', onTimeout: 'remind' });
    expect(a.timeLimitHours).toBeUndefined();
  });

  it('shows the validator\'s issues of its node', () => {
    renderPanel((t, edit) => <ActivityPanel activity={approve(t)} template={t} issues={[{ rule: 'participantsMissing', message: '节点 审批 没有设置参与者', activity: 'Approve1' }]} edit={edit} onRemoved={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('节点 审批 没有设置参与者');
  });
});

describe('the route panel', () => {
  it('marks the else and writes condition rules on the form\'s fields', () => {
    const seen = renderPanel((t, edit) => {
      const route = t.routes.find((r) => r.from === 'Condition1')!;
      return <RoutePanel route={route} template={t} edit={edit} onRemoved={() => {}} />;
    });
    fireEvent.click(screen.getByRole('button', { name: /添加条件/ }));
    const rule = screen.getByLabelText('条件 1');
    expect(within(rule).getByRole('combobox', { name: '字段' })).toBeTruthy();
    expect(seen.template!.routes.find((r) => r.from === 'Condition1')!.condition).toEqual({ match: 'all', rules: [{ field: 'Title', operator: 'eq', value: undefined }] });
    fireEvent.change(within(rule).getByRole('textbox', { name: '值' }), { target: { value: '出差' } });
    expect(seen.template!.routes.find((r) => r.from === 'Condition1')!.condition!.rules[0].value).toBe('出差');

    fireEvent.click(screen.getByRole('switch', { name: '否则（其他情况）' }));
    const route = seen.template!.routes.find((r) => r.from === 'Condition1')!;
    expect(route).toMatchObject({ isElse: true });
    expect(route.condition).toBeUndefined();
  });

  it('writes a formula condition instead of field rules, and shows it on the route', async () => {
    stubFetch({ 'POST /v1/formula/expression/validate': () => ok({ valid: true, errors: [], dependencies: ['Amount'], resultType: 'bool' }) });
    const seen = renderPanel((t, edit) => {
      const route = t.routes.find((r) => r.from === 'Condition1')!;
      return <RoutePanel route={route} template={t} edit={edit} onRemoved={() => {}} />;
    });
    fireEvent.click(screen.getByText('公式'));
    const view = EditorView.findFromDOM(await screen.findByLabelText('条件公式'))!;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '{Amount} > 5000' } });
    const route = seen.template!.routes.find((r) => r.from === 'Condition1')!;
    expect(route.formula).toBe('{Amount} > 5000');
    expect(route.condition).toBeUndefined();
    expect(describeRoute(route, FIELDS, i18n.t)).toBe('{Amount} > 5000');
  });
});
