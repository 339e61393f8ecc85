import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import { WorkbenchProviders } from '../../test/render.tsx';
import { render } from '@testing-library/react';
import { AppProposalEditor } from './app-proposal-editor.tsx';
import { stashDraft, takeDraft } from './record-drafts.ts';

// The proposal's editor (docs/decisions/0126): what the person changes is what 创建 sends — a field renamed, its type
// changed among the registry's (a choice keeps or gets items), a field removed with the list column and chart that
// read it, a field added, the approver chosen.

const PROPOSAL: contracts.AppProposal = {
  appName: '客户拜访',
  forms: [
    {
      name: '拜访记录',
      fields: [
        { type: 'textBox', code: 'Customer', options: { displayName: '客户', required: true } },
        { type: 'dropDown', code: 'Result', options: { displayName: '拜访结果', defaultItems: ['有意向', '待跟进'] } },
        { type: 'textBox', code: 'Level', options: { displayName: '客户级别' } },
      ],
      listColumns: ['Customer', 'Result', 'Level'],
      workflow: { approvalName: '经理审批', approver: { kind: 'manager' } },
    },
  ],
  dashboard: { name: '拜访统计', charts: [{ title: '按结果统计', form: 0, type: 'pie', groupBy: 'Result', sumField: null }] },
};
const TYPES = [
  { key: 'textBox', name: '单行文本' },
  { key: 'textArea', name: '多行文本' },
  { key: 'radioList', name: '单选框' },
  { key: 'dropDown', name: '下拉框' },
];

function Harness({ seen }: { seen: { current: contracts.AppProposal } }) {
  const [proposal, setProposal] = useState(PROPOSAL);
  seen.current = proposal;
  return <AppProposalEditor proposal={proposal} onChange={setProposal} controlTypes={TYPES} roles={['销售经理']} />;
}

describe('AppProposalEditor', () => {
  it('renames, retypes, removes and adds fields, and chooses the approver', async () => {
    const user = userEvent.setup();
    const seen = { current: PROPOSAL };
    render(
      <WorkbenchProviders queryClient={new QueryClient()}>
        <Harness seen={seen} />
      </WorkbenchProviders>,
    );
    const names = () => screen.getAllByLabelText('字段名称') as HTMLInputElement[];
    await user.clear(names()[0]!);
    await user.type(names()[0]!, '客户名称');
    // 客户级别 becomes a radio list: it gets items to choose from.
    const rows = screen.getAllByTestId('proposal-field');
    await user.click(within(rows[2]!).getByRole('combobox'));
    await user.click(await screen.findByTitle('单选框'));
    // Removing 拜访结果 takes its list column and the chart grouped by it.
    await user.click(screen.getByRole('button', { name: '删除字段「拜访结果」' }));
    await user.click(screen.getByRole('button', { name: /添加字段/ }));
    await user.click(screen.getByRole('combobox', { name: '审批人' }));
    await user.click(await screen.findByTitle('角色：销售经理'));
    const form = seen.current.forms[0]!;
    expect(form.fields).toEqual([
      { type: 'textBox', code: 'Customer', options: { displayName: '客户名称', required: true } },
      { type: 'radioList', code: 'Level', options: { displayName: '客户级别', defaultItems: ['选项1', '选项2', '选项3'] } },
      { type: 'textBox', code: 'Field3', options: { displayName: '新字段' } },
    ]);
    expect(form.listColumns).toEqual(['Customer', 'Level', 'Field3']);
    expect(form.workflow).toEqual({ approvalName: '经理审批', approver: { kind: 'role', roleName: '销售经理' } });
    expect(seen.current.dashboard!.charts).toEqual([]);
  });
});

describe('record drafts', () => {
  it("hands a draft to its form's new-record page, and to no other form", () => {
    const draft = { schemaCode: 'expense', formName: '报销单', values: { Amount: 300 }, filled: ['Amount'], issues: [] };
    const href = stashDraft(draft);
    expect(href).toMatch(/^\/form\/open\/expense\?aiDraft=/);
    const search = href.slice(href.indexOf('?'));
    expect(takeDraft('expense', search)).toEqual(draft);
    expect(takeDraft('other', search)).toBeNull();
    expect(takeDraft('expense', '')).toBeNull();
  });
});
