import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { findDialog } from '../../../test/find-dialog.ts';
import { clearUploadPolicies } from '../api/upload.ts';
import { dataUrlToFile, handSignField } from './hand-sign-field.tsx';
import { renderDisplay, renderField, runtimeControl, stubFileServer } from './test-harness.tsx';

// happy-dom draws nothing on a canvas: the pad is a stub whose strokes the test decides.
const pad = vi.hoisted(() => ({ drawn: false, cleared: 0 }));
vi.mock('signature_pad', () => ({
  default: class {
    isEmpty() {
      return !pad.drawn;
    }
    clear() {
      pad.cleared += 1;
      pad.drawn = false;
    }
    off() {}
    toDataURL() {
      return 'data:image/png;base64,iVBORw0KGgo=';
    }
  },
}));

beforeEach(() => {
  clearUploadPolicies();
  pad.drawn = false;
  pad.cleared = 0;
});

describe('hand sign field', () => {
  it('asks for a signature, then uploads the drawing as a PNG in the handSign scene', async () => {
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    // The button carries the field's id, so the form's title (签名) names it; its text says what it does.
    const open = screen.getByLabelText('签名');
    expect(open.textContent).toBe('手写签名');
    await user.click(open);
    const dialog = await findDialog('手写签名');
    expect(within(dialog).getByLabelText('签名区域').tagName).toBe('CANVAS');

    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('请先签名');
    expect(callsTo('POST', '/v1/file/upload')).toHaveLength(0);

    pad.drawn = true;
    await user.click(within(dialog).getByRole('button', { name: '清除' }));
    expect(pad.cleared).toBe(1);
    pad.drawn = true;
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ id: 'f1', name: 'signature.png', size: 8, contentType: 'image/png' }));
    const [upload] = callsTo('POST', '/v1/file/upload');
    expect(Object.fromEntries(new URL(upload.url, 'http://localhost').searchParams)).toEqual({ scene: 'handSign', fileName: 'signature.png' });
    expect(upload.headers['content-type']).toBe('image/png');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByRole('img', { name: '签名图片' })).getAttribute('src')).toContain('/v1/file/download/f1');

    await user.click(screen.getByRole('button', { name: '删除签名' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('closes with Esc without a value', async () => {
    stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(handSignField, runtimeControl('handSign', {}, '签名'));
    await user.click(screen.getByLabelText('签名'));
    await findDialog('手写签名');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the signature or --', async () => {
    stubFileServer();
    const control = runtimeControl('handSign');
    const shown = renderDisplay(handSignField, { control, value: { id: 's1', name: 'signature.png', size: 8, contentType: 'image/png' }, print: true });
    expect((await screen.findByRole('img', { name: '签名图片' })).getAttribute('src')).toContain('/v1/file/download/s1');
    shown.unmount();
    renderDisplay(handSignField, { control, value: null, print: false });
    expect(screen.getByText('--')).toBeTruthy();
  });

  it('turns a data URL into a file of its bytes', async () => {
    const file = dataUrlToFile('data:image/png;base64,iVBORw0KGgo=', 'a.png');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
