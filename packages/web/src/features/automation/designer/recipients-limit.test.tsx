import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderPanel } from '../../../test/render-panel.tsx';
import { stubFetch } from '../../../test/fetch-stub.ts';
import { RecipientsInput } from './recipients-input.tsx';

// domain.md §5: an SMS or e-mail reaches at most 5 recipients; the step editor says so where addresses are typed.

const value = { owner: true, creator: false, fields: [], userIds: [], addresses: ['13900000001', '13900000002'] };

describe('recipients of an SMS or e-mail step', () => {
  it('shows the limit of 5 recipients for SMS and e-mail, not for an in-app notification', () => {
    stubFetch({});
    const { unmount } = renderPanel(<RecipientsInput id="s1" value={value} onChange={() => {}} viewFields={[]} addresses="sms" />);
    expect(screen.getByText('短信和邮件每次最多发送给 5 个收件人（含人员字段、负责人和创建人找到的人）')).toBeTruthy();
    unmount();
    renderPanel(<RecipientsInput id="n1" value={{ ...value, addresses: [] }} onChange={() => {}} viewFields={[]} addresses={null} />);
    expect(screen.queryByText(/最多发送给 5 个收件人/)).toBeNull();
  });
});
