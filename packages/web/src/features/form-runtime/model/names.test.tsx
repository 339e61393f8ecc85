import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { DisplayText } from '../fields/default-display.tsx';
import { NamesProvider, PENDING_NAME } from './names.tsx';

function renderUser(unitId: string) {
  const control = { code: 'Owner', type: controlTypeByKey('user'), options: {}, label: '负责人' };
  return render(
    <WorkbenchProviders queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <NamesProvider request={{ unitIds: [unitId], objects: [] }}>
        <DisplayText control={control} value={unitId} device="pc" print={false} />
      </NamesProvider>
    </WorkbenchProviders>,
  );
}

describe('names of ids in a record', () => {
  it('shows a placeholder, never the raw id, until the name arrives', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubFetch({ 'POST /v1/org/unit/batch': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderUser('u-7f3a');
    expect(await screen.findByText(PENDING_NAME)).toBeTruthy();
    expect(screen.queryByText('u-7f3a')).toBeNull();
    answer(ok({ list: [{ id: 'u-7f3a', name: '李四' }] }));
    expect(await screen.findByText('李四')).toBeTruthy();
  });

  it('an id the lookup does not know shows as itself once the lookup answered', async () => {
    stubFetch({ 'POST /v1/org/unit/batch': () => ok({ list: [] }) });
    renderUser('u-gone');
    expect(await screen.findByText('u-gone')).toBeTruthy();
  });
});
