import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { RuntimeFormContext, type RuntimeFormState } from '../components/form-context.ts';
import { runtimeControl } from './test-harness.tsx';
import { eSignField } from './esign-field.tsx';
import type { ESignFlowDto } from '../../e-sign/esign-api.ts';

// The e-sign control in an open record: 插件未安装 without a provider; a running flow's state, each signer's state,
// 去签署 for the signer whose turn it is, 撤销 for the initiator; the form's copy of the value follows the server's.

function renderInRecord(onChange: (value: unknown) => void = () => undefined) {
  const control = runtimeControl('eSign', { attachmentCode: null, templateCode: null }, '合同签署');
  const state = {
    schemaCode: 'Contracts', mode: 'Edit', device: 'pc', titleWidth: 100, form: { values: {}, children: {} }, system: { ObjectId: 'rec-1' }, errors: {},
    setValue: () => undefined, setRows: () => undefined,
  } satisfies RuntimeFormState;
  render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <RuntimeFormContext.Provider value={state}>
        <eSignField.Edit control={control} value={{ flowId: 'f-1', state: 'Running' }} onChange={onChange} id="esign" invalid={false} device="pc" schemaCode="Contracts" />
      </RuntimeFormContext.Provider>
    </WorkbenchProviders>,
  );
}

const signer = (order: number, name: string, state: string, signUrl: string | null = null) => ({ order, userId: `u${order}`, name, mobile: '139****0001', forOrganization: false, state, signUrl, startedTime: null, signedTime: null, reason: null });
const flow = (over: Partial<ESignFlowDto> = {}): ESignFlowDto => ({
  flowId: 'f-1', provider: 'esign-tsign', state: 'Running', schemaCode: 'Contracts', objectId: 'rec-1', controlCode: 'F_eSign',
  initiator: { userId: 'u0', name: '周明远' }, document: null, signed: null, createdTime: '2026-11-29T04:00:00.000Z', finishedTime: null,
  signers: [signer(1, '王经理', 'Complete'), signer(2, '李思远', 'Signing', 'https://sign.example/s/2')] as ESignFlowDto['signers'],
  events: [{ time: '2026-11-29T04:00:00.000Z', kind: 'started', order: null, name: null, reason: null }], canRevoke: true, ...over,
});

describe('e-sign control', () => {
  it('says 插件未安装 when no provider is installed', async () => {
    stubFetch({ 'GET /v1/esign/flow': () => ok({ installed: false, providerName: null, canStart: false, flow: null }) });
    renderInRecord();
    expect(await screen.findByText('插件未安装')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '发起签署' })).toBeNull();
  });

  it('shows the flow and the signers’ states, the signing link for the signer whose turn it is, and revokes for the initiator', async () => {
    const stub = stubFetch({
      'GET /v1/esign/flow': () => ok({ installed: true, providerName: 'e签宝', canStart: false, flow: flow() }),
      'POST /v1/esign/flow/revoke': () => ok(flow({ state: 'Revoke', canRevoke: false })),
    });
    const seen: unknown[] = [];
    renderInRecord((value) => seen.push(value));
    expect(await screen.findByText('签署中', { selector: '[data-testid=esign-flow-state]' })).toBeTruthy();
    expect(screen.getByText('已签署')).toBeTruthy();
    expect(screen.getByRole('link', { name: '去签署' }).getAttribute('href')).toBe('https://sign.example/s/2');
    await userEvent.click(screen.getByRole('button', { name: /撤\s*销/ }));
    await userEvent.click((await screen.findAllByRole('button', { name: /确\s*定/ })).at(-1)!);
    await waitFor(() => expect(stub.callsTo('POST', '/v1/esign/flow/revoke')[0]!.body).toEqual({ flowId: 'f-1' }));
    await waitFor(() => expect(seen).toContainEqual({ flowId: 'f-1', state: 'Revoke' }));
  });
});
