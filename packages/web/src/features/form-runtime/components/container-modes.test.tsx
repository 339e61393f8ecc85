import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ok } from '../../../test/fetch-stub.ts';
import { renderRoutes, WorkbenchProviders } from '../../../test/render.tsx';
import { orderDefinition, stubRuntime } from '../test/runtime-fake.ts';
import { RuntimeFormModal, type OpenForm } from './runtime-form-modal.tsx';

// docs/decisions/0115: the container mode decides how a PC form opens; Readonly leaves only 关闭 and 打印; a form
// switched off on the PC does not open there.

function stubForm(attributes: Record<string, unknown>) {
  const definition = orderDefinition();
  stubRuntime({
    handlers: {
      'POST /v1/form/loadsetting': () =>
        ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition: { ...definition, attributes: { ...definition.attributes, ...attributes } } }),
    },
  });
}

function Host({ start }: { start: OpenForm }) {
  const [open, setOpen] = useState<OpenForm | null>(start);
  return (
    <>
      <output aria-label="state">{open ? open.mode : 'closed'}</output>
      <RuntimeFormModal open={open} device="pc" onChange={setOpen} />
    </>
  );
}

function renderHost(start: OpenForm) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <WorkbenchProviders queryClient={queryClient}>
      <Host start={start} />
    </WorkbenchProviders>,
  );
}

function Where() {
  const location = useLocation();
  return <output aria-label="page">{`${location.pathname}${location.search}`}</output>;
}

describe('container modes on a PC', () => {
  it('Modal opens the form in a modal', async () => {
    stubForm({ containerMode: 'Modal' });
    renderHost({ schemaCode: 'f_order', objectId: 'r1', mode: 'View' });
    const form = await screen.findByRole('form', { name: '订单' });
    expect(form.closest('.ant-modal')).toBeTruthy();
  });

  it('Drawer opens the form in a drawer from the right, as wide as the form', async () => {
    stubForm({ containerMode: 'Drawer', modalWidth: 900 });
    renderHost({ schemaCode: 'f_order', objectId: 'r1', mode: 'View' });
    const form = await screen.findByRole('form', { name: '订单' });
    expect(form.closest('.ant-modal')).toBeNull();
    expect(form.closest('.ant-drawer-right')).toBeTruthy();
    expect((form.closest('.ant-drawer-content-wrapper') as HTMLElement).style.width).toBe('900px');
  });

  it("Specified goes to the form's own page", async () => {
    stubForm({ containerMode: 'Specified' });
    renderRoutes(
      [
        { path: '/list', element: <Host start={{ schemaCode: 'f_order', objectId: 'r1', mode: 'Edit' }} /> },
        { path: '/form/open/:schemaCode/:objectId?', element: <Where /> },
      ],
      '/list',
    );
    expect((await screen.findByLabelText('page')).textContent).toBe('/form/open/f_order/r1?mode=Edit');
  });
});

describe('Readonly and device visibility', () => {
  it('Readonly shows the record with 关闭 and 打印 only', async () => {
    stubForm({});
    renderHost({ schemaCode: 'f_order', objectId: 'r1', mode: 'Readonly' });
    await screen.findByRole('form', { name: '订单' });
    await waitFor(() => expect(screen.getByRole('button', { name: '打印' })).toBeTruthy());
    const names = screen.getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, '')).filter(Boolean);
    expect(names.filter((name) => !['关闭', '打印'].includes(name!))).toEqual([]);
  });

  it('a form switched off on the PC says so instead of opening', async () => {
    stubForm({ pcVisible: false });
    renderHost({ schemaCode: 'f_order', objectId: 'r1', mode: 'View' });
    expect(await screen.findByText('此表单未在电脑端启用，请在手机上打开')).toBeTruthy();
    expect(screen.queryByRole('form', { name: '订单' })).toBeNull();
  });
});
