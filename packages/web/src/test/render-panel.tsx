import type { ReactElement } from 'react';
import { render, screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from './render.tsx';

/** A side panel inside the app's providers with a fresh cache (tests only). */
export function renderPanel(panel: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(<WorkbenchProviders queryClient={queryClient}>{panel}</WorkbenchProviders>);
}

/** Clicks `button` in the open Popconfirm that asks `question`. */
export async function confirmPopover(user: ReturnType<typeof userEvent.setup>, question: string, button: string) {
  const popover = (await screen.findByText(question)).closest('.ant-popover') as HTMLElement;
  await user.click(within(popover).getByRole('button', { name: button }));
}
