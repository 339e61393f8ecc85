import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CommentsPanel } from './comments-panel.tsx';
import { comment, stubComments } from './side-fake.ts';
import { confirmPopover, renderPanel } from '../../../test/render-panel.tsx';

const LISI = { id: 'u2', name: '李四' };
const list = () => screen.findByRole('list', { name: '评论列表' });
const items = (container: HTMLElement) => within(container).getAllByRole('listitem').filter((li) => li.parentElement === container);

describe('CommentsPanel', () => {
  it('lists comments newest first with their replies, and 删除 only on removable ones', async () => {
    const first = comment('第一条', LISI);
    const mine = comment('我的评论');
    const reply = comment('回答李四', { id: 'u1', name: '张三' }, { replyTo: first.snsId, replyToAuthorName: '李四' });
    stubComments([first, mine, reply]);
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    const ul = await list();
    expect(screen.getByRole('heading', { name: '评论（3）' })).toBeTruthy();
    const threads = items(ul);
    expect(threads.map((li) => within(li).getAllByText(/第一条|我的评论/)[0].textContent)).toEqual(['我的评论', '第一条']);
    const replies = within(threads[1]).getByRole('list', { name: '李四的评论的回复' });
    expect(within(replies).getByText('回答李四')).toBeTruthy();
    expect(within(replies).getByText('回复 李四')).toBeTruthy();
    // 李四's comment has 回复 but no 删除; the person's own comment and reply have both.
    expect(within(threads[0]).getAllByRole('button', { name: '删除' })).toHaveLength(1);
    expect(within(threads[1]).getAllByRole('button', { name: '删除' })).toHaveLength(1);
    expect(within(threads[1]).getAllByRole('button', { name: '回复' })).toHaveLength(2);
  });

  it('@ mentions people picked in the org picker; only those still named in the text are sent', async () => {
    const { callsTo } = stubComments();
    const user = userEvent.setup();
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    expect(await screen.findByText('还没有评论')).toBeTruthy();
    const box = screen.getByRole('textbox', { name: '评论内容' }) as HTMLTextAreaElement;
    await user.type(box, '请看');
    await user.click(screen.getByRole('button', { name: /@提到/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'ww');
    await user.click(await within(dialog).findByRole('checkbox', { name: /王五/ }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(box.value).toBe('请看 @王五 ');
    await user.click(screen.getByRole('button', { name: '发表' }));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/sns/add')).toHaveLength(1));
    expect(callsTo('POST', '/v1/toolkit/sns/add')[0].body).toEqual({ schemaCode: 'Orders', objectId: 'rec-1', text: '请看 @王五', mentionIds: ['u3'] });
  });

  it('posts a trimmed comment; the box counts up to 2000 characters and refuses blank text', async () => {
    const { callsTo } = stubComments();
    const user = userEvent.setup();
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    expect(await screen.findByText('还没有评论')).toBeTruthy();
    const box = screen.getByRole('textbox', { name: '评论内容' });
    expect(box.getAttribute('maxlength')).toBe('2000');
    const send = screen.getByRole('button', { name: '发表' });
    await user.type(box, '   ');
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.type(box, '新的评论 ');
    expect(screen.getByText('8 / 2000')).toBeTruthy();
    await user.click(send);
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/sns/add')).toHaveLength(1));
    expect(callsTo('POST', '/v1/toolkit/sns/add')[0].body).toEqual({ schemaCode: 'Orders', objectId: 'rec-1', text: '新的评论' });
    expect(await within(await list()).findByText('新的评论')).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('heading', { name: '评论（1）' })).toBeTruthy();
  });

  it('replies to a comment with 回复, and removes one\'s own comment after confirming', async () => {
    const first = comment('请看附件', LISI, { files: [{ id: 'f1', name: '合同.pdf', size: 10, contentType: 'application/pdf' }] });
    const mine = comment('我的评论');
    const { callsTo, comments } = stubComments([first, mine]);
    const user = userEvent.setup();
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    const threads = items(await list());
    expect(within(threads[1]).getByText('合同.pdf')).toBeTruthy();
    await user.click(within(threads[1]).getByRole('button', { name: '回复' }));
    expect(screen.getByText('回复 李四')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: '评论内容' }), '收到');
    await user.click(screen.getByRole('button', { name: '发表回复' }));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/sns/comment/add')).toHaveLength(1));
    expect(callsTo('POST', '/v1/toolkit/sns/comment/add')[0].body).toEqual({ replyTo: first.snsId, text: '收到' });
    expect(await screen.findByRole('list', { name: '李四的评论的回复' })).toBeTruthy();

    await user.click(within(items(await list())[0]).getByRole('button', { name: '删除' }));
    await confirmPopover(user, '删除这条评论及其下的回复？', '删除');
    await waitFor(() => expect(callsTo('DELETE', '/v1/toolkit/sns/remove')).toHaveLength(1));
    expect(callsTo('DELETE', '/v1/toolkit/sns/remove')[0].url).toContain(`snsId=${mine.snsId}`);
    await waitFor(() => expect(screen.queryByText('我的评论')).toBeNull());
    expect(comments().map((c) => c.text)).toEqual(['请看附件', '收到']);
  });

  it('attaches files to a comment (at most 8, the sns scene), and shows them as links', async () => {
    const { callsTo } = stubComments();
    const user = userEvent.setup();
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    await screen.findByText('还没有评论');
    const files = Array.from({ length: 9 }, (_, i) => new File([`file ${i}`], `清单${i + 1}.pdf`, { type: 'application/pdf' }));
    await user.upload(screen.getByLabelText('添加附件'), files);
    await waitFor(() => expect(callsTo('POST', '/v1/file/upload')).toHaveLength(8));
    expect(await screen.findByText('最多上传 8 个文件，「清单9.pdf」未上传')).toBeTruthy();
    const pending = screen.getByLabelText('待发表的附件');
    expect(within(pending).getAllByText(/^清单\d\.pdf$/)).toHaveLength(8);
    await user.type(screen.getByRole('textbox', { name: '评论内容' }), '见附件');
    await user.click(screen.getByRole('button', { name: '发表' }));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/sns/add')).toHaveLength(1));
    expect((callsTo('POST', '/v1/toolkit/sns/add')[0].body as { fileIds: string[] }).fileIds).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8']);
    const link = await within(await list()).findByRole('link', { name: '清单1.pdf' });
    expect(link.getAttribute('href')).toBe('/v1/file/download/f1?s=1');
    expect(screen.queryByLabelText('待发表的附件')).toBeNull();
  });

  it('says so when the form has comments off', async () => {
    stubComments([], { disabled: true });
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    expect(await screen.findByText('该表单未开启评论')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
