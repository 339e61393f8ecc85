import { screen, waitFor } from '@testing-library/react';

/** antd names dialogs by a fixed id under test, so dialogs are found by their title text instead. */
export async function findDialog(title: string | RegExp) {
  return waitFor(() => {
    const dialog = screen.queryAllByRole('dialog').find((d) => (typeof title === 'string' ? d.textContent?.includes(title) : title.test(d.textContent ?? '')));
    if (!dialog) throw new Error(`no dialog titled ${title}`);
    return dialog;
  });
}
