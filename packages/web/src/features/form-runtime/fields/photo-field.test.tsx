import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import imageCompression from 'browser-image-compression';
import { clearUploadPolicies, MB } from '../api/upload.ts';
import { photoField, THUMBNAIL_SIZE } from './photo-field.tsx';
import { fileOfSize, renderDisplay, renderField, runtimeControl, stubFileServer } from './test-harness.tsx';

// Only the library call is replaced: it answers a small JPEG named like the original.
vi.mock('browser-image-compression', () => ({
  default: vi.fn(async (file: File) => new File(['compressed'], file.name, { type: file.type })),
}));
const compress = vi.mocked(imageCompression);

beforeEach(() => {
  clearUploadPolicies();
  compress.mockClear();
});
afterEach(() => clearUploadPolicies());

describe('photo field', () => {
  it('compresses an image above 5 MB at quality 0.2 and uploads the result in the image scene', async () => {
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(photoField, runtimeControl('photo', { maxUploadSize: 20 }, '图片'));
    await user.upload(screen.getByLabelText('上传图片'), fileOfSize('现场.jpg', 'image/jpeg', 6 * MB));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(compress).toHaveBeenCalledTimes(1);
    expect(compress.mock.calls[0][1]).toMatchObject({ initialQuality: 0.2, useWebWorker: false });
    const [upload] = callsTo('POST', '/v1/file/upload');
    expect(new URL(upload.url, 'http://localhost').searchParams.get('scene')).toBe('image');
    expect((upload.body as File).size).toBe('compressed'.length);
    expect(onChange).toHaveBeenLastCalledWith([{ id: 'f1', name: '现场.jpg', size: 'compressed'.length, contentType: 'image/jpeg' }]);
    // A 96 px thumbnail from the signed link.
    const thumbnail = await within(screen.getByRole('list', { name: '图片列表' })).findByRole('img', { name: '现场.jpg' });
    expect(thumbnail.getAttribute('src')).toBe('/v1/file/download/f1?signature=x');
    expect(thumbnail.getAttribute('width')).toBe(String(THUMBNAIL_SIZE));
  });

  it('uploads an image of 5 MB or less as it is', async () => {
    const { callsTo } = stubFileServer();
    const user = userEvent.setup();
    const { onChange } = renderField(photoField, runtimeControl('photo', { maxUploadSize: 20 }, '图片'));
    const small = new File(['png-bytes'], 'a.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('上传图片'), small);
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(compress).not.toHaveBeenCalled();
    expect(callsTo('POST', '/v1/file/upload')[0].body).toBe(small);
  });

  it('refuses what is not an image, and what is still above the cap after compression', async () => {
    const { callsTo } = stubFileServer();
    compress.mockImplementationOnce(async (file: File) => fileOfSize(file.name, file.type, 3 * MB));
    const user = userEvent.setup({ applyAccept: false });
    renderField(photoField, runtimeControl('photo', { maxUploadSize: 2 }, '图片'));
    await user.upload(screen.getByLabelText('上传图片'), new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toContain('「a.pdf」不是图片');
    await user.upload(screen.getByLabelText('上传图片'), fileOfSize('big.jpg', 'image/jpeg', 8 * MB));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('「big.jpg」超过 2MB'));
    expect(callsTo('POST', '/v1/file/upload')).toHaveLength(0);
  });

  it('removes a photo and shows thumbnails or -- on display', async () => {
    stubFileServer();
    const user = userEvent.setup();
    const photos = [{ id: 'p1', name: 'a.png', size: 10, contentType: 'image/png' }];
    const { onChange, unmount } = renderField(photoField, runtimeControl('photo', {}, '图片'), photos);
    await user.click(screen.getByRole('button', { name: '删除a.png' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    unmount();
    const shown = renderDisplay(photoField, { control: runtimeControl('photo'), value: photos, print: true });
    expect((await screen.findByRole('img', { name: 'a.png' })).getAttribute('src')).toContain('/v1/file/download/p1');
    shown.unmount();
    renderDisplay(photoField, { control: runtimeControl('photo'), value: [], print: false });
    expect(screen.getByText('--')).toBeTruthy();
  });
});
