import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { RuntimeFormContext, type RuntimeFormState } from '../components/form-context.ts';
import type { FormValues } from '../model/form-values.ts';
import { addScanned } from './batch-scan-codes.ts';
import { batchScanField } from './batch-scan-field.tsx';
import { runtimeControl } from './test-harness.tsx';

// The camera is the browser's: BarcodeDetector and getUserMedia are replaced; the detector answers one frame after
// another from a script, the last frame over and over.

const frames = (script: string[][]) => {
  const detect = vi.fn(async () => (script.length > 1 ? script.shift()! : script[0] ?? []).map((rawValue) => ({ rawValue })));
  const stop = vi.fn();
  (globalThis as unknown as Record<string, unknown>).BarcodeDetector = class {
    detect = detect;
  };
  const stream = Object.assign(new MediaStream(), { getTracks: () => [{ stop }] });
  const getUserMedia = vi.fn(async () => stream);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  return { detect, stop, getUserMedia };
};

afterEach(() => {
  delete (globalThis as unknown as Record<string, unknown>).BarcodeDetector;
  Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
});

/** The field inside an open form that owns its value and the sub-table `Items`. */
function renderInForm(options: Record<string, unknown>, initial: string[] | null = null, rows: FormValues['children'][string] = []) {
  const control = runtimeControl('batchScan', options, '扫码');
  const seen = { value: initial as string[] | null, rows };
  function Form() {
    const [value, setValue] = useState<string[] | null>(initial);
    const [form, setForm] = useState<FormValues>({ values: {}, children: { Items: rows } });
    seen.value = value;
    seen.rows = form.children.Items ?? [];
    const state = {
      schemaCode: 'D000001form', mode: 'Create', device: 'phone', titleWidth: 100, form, system: {}, errors: {},
      setValue: () => undefined,
      setRows: (grid, update) => setForm((f) => ({ ...f, children: { ...f.children, [grid]: update(f.children[grid] ?? []) } })),
    } satisfies RuntimeFormState;
    return (
      <RuntimeFormContext.Provider value={state}>
        <batchScanField.Edit control={control} value={value} onChange={setValue} id="scan" invalid={false} device="phone" schemaCode="D000001form" />
      </RuntimeFormContext.Provider>
    );
  }
  render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <Form />
    </WorkbenchProviders>,
  );
  return seen;
}

const codesIn = (rows: FormValues['children'][string]) => rows.map((row) => row.Code);

describe('batch scan', () => {
  it('reads codes with the camera, once each while in view, and fills the sub-table column', async () => {
    const camera = frames([[], ['SN-1'], ['SN-1'], ['SN-1', '6901234567892'], [], ['SN-1'], []]);
    const user = userEvent.setup();
    const seen = renderInForm({ targetGridView: 'Items', targetColumn: 'Code' });
    await user.click(screen.getByRole('button', { name: /扫码/ }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    await waitFor(() => expect(seen.value).toEqual(['SN-1', '6901234567892']), { timeout: 4000 });
    expect(camera.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    // SN-1 shown again after leaving the view: already entered, refused, said so.
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('status').textContent).toContain('「SN-1」已录入过'), { timeout: 4000 });
    expect(seen.value).toEqual(['SN-1', '6901234567892']);
    expect(codesIn(seen.rows)).toEqual(['SN-1', '6901234567892']);
    await user.click(screen.getByRole('button', { name: '完成' }));
    await waitFor(() => expect(camera.stop).toHaveBeenCalled());
    const calls = camera.detect.mock.calls.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(camera.detect.mock.calls.length).toBe(calls);
  });

  it('keeps repeats when duplicates are allowed, and a removed code takes its row with it', async () => {
    frames([['A'], [], ['A'], []]);
    const user = userEvent.setup();
    const seen = renderInForm({ targetGridView: 'Items', targetColumn: 'Code', allowDuplicates: true }, null, [{ __key: 'old', Code: 'typed by hand' }]);
    await user.click(screen.getByRole('button', { name: /扫码/ }));
    await waitFor(() => expect(seen.value).toEqual(['A', 'A']), { timeout: 4000 });
    await user.click(screen.getByRole('button', { name: '完成' }));
    expect(codesIn(seen.rows)).toEqual(['typed by hand', 'A', 'A']);
    const list = screen.getByRole('list', { name: '扫码已录入的码' });
    await user.click(list.querySelectorAll('.ant-tag-close-icon')[1]!);
    expect(seen.value).toEqual(['A']);
    expect(codesIn(seen.rows)).toEqual(['typed by hand', 'A']);
  });

  it('without BarcodeDetector takes typed codes (a handheld scanner types and presses Enter); no sub-table set fills none', async () => {
    const user = userEvent.setup();
    const seen = renderInForm({ targetGridView: 'Items' });
    expect(screen.queryByRole('button', { name: /扫码/ })).toBeNull();
    const input = screen.getByRole('textbox', { name: '扫码' });
    await user.type(input, ' SN-9 {Enter}');
    await user.type(input, 'SN-9{Enter}');
    expect(seen.value).toEqual(['SN-9']);
    expect(screen.getByRole('status').textContent).toContain('「SN-9」已录入过');
    expect(seen.rows).toEqual([]);
  });

  it('says so when the camera is not allowed, and the typed entry stays', async () => {
    const camera = frames([['X']]);
    camera.getUserMedia.mockRejectedValueOnce(Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }));
    const user = userEvent.setup();
    renderInForm({});
    await user.click(screen.getByRole('button', { name: /扫码/ }));
    expect((await within(await screen.findByRole('dialog')).findByRole('alert')).textContent).toContain('未获准使用摄像头');
    expect(camera.detect).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: '扫码' })).toBeTruthy();
  });

  it('stops at 200 codes', () => {
    const full = Array.from({ length: 200 }, (_, i) => `C${i}`);
    expect(addScanned(full, ['X'], true)).toMatchObject({ added: [], overLimit: true });
    expect(addScanned(['A'], ['A', ' B ', '', 'B'], false)).toEqual({ value: ['A', 'B'], added: ['B'], repeated: ['A', 'B'], overLimit: false });
  });
});
