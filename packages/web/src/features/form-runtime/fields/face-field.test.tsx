import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { clearUploadPolicies } from '../api/upload.ts';
import { faceRecognitionField } from './face-field.tsx';
import { policy, renderField, runtimeControl } from './test-harness.tsx';

// The face-recognition field: the photo is uploaded and compared; a pass sets the check's id as the value and says
// 比对通过 with the score, a fail clears it and offers another try, the server's refusal is shown, and without the
// plugin the field says so and cannot be used.

const photo = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'me.png', { type: 'image/png' });

function server(compare: () => Response, status = { installed: true, hasPhoto: true }) {
  return stubFetch({
    'GET /v1/facecheck/status': () => ok(status),
    'GET /v1/file/policy/upload': () => ok(policy('image', 20)),
    'POST /v1/file/upload': () => ok({ fileId: '0190a0b0-0000-7000-8000-000000000001', name: 'me.png', size: 8, contentType: 'image/png' }),
    'POST /v1/facecheck/compare': compare,
  });
}

afterEach(() => clearUploadPolicies());

describe('face-recognition field', () => {
  it('opens the front camera on a phone, and a pass sets the check as the value with the score and name', async () => {
    const stub = server(() => ok({ checkId: 'chk-1', matched: true, score: 88, threshold: 80, userId: 'u1', userName: '李明' }));
    const { onChange, container } = renderField(faceRecognitionField, runtimeControl('faceRecognition', {}, '刷脸签到'), null, 'phone');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.getAttribute('capture')).toBe('user');
    expect(await screen.findByRole('button', { name: /拍照比对/ })).toBeTruthy();
    await userEvent.upload(input, photo());
    expect(await screen.findByText(/比对通过 · 相似度 88（李明）/)).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith('chk-1');
    expect(stub.callsTo('POST', '/v1/facecheck/compare')[0]!.body).toEqual({ schemaCode: 'D000001form', controlCode: 'F_faceRecognition', fileId: '0190a0b0-0000-7000-8000-000000000001' });
  });

  it('a fail leaves the field empty and offers another try; a refusal shows the server’s message', async () => {
    let answer = () => ok({ checkId: 'chk-2', matched: false, score: 12, threshold: 80, userId: 'u1', userName: '李明' });
    server(() => answer());
    const { onChange, container } = renderField(faceRecognitionField, runtimeControl('faceRecognition', {}, '刷脸签到'));
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.getAttribute('capture')).toBeNull();
    await userEvent.upload(input, photo());
    expect(await screen.findByText(/比对未通过 · 相似度 12/)).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(screen.getByRole('button', { name: /重新比对/ })).toBeTruthy();
    answer = () => fail(470004, '照片中没有检测到人脸，请正对镜头、光线充足时重新拍摄');
    await userEvent.upload(input, photo());
    expect(await screen.findByText('照片中没有检测到人脸，请正对镜头、光线充足时重新拍摄')).toBeTruthy();
  });

  it('says the plugin is not installed and cannot be used', async () => {
    server(() => ok({}), { installed: false, hasPhoto: false });
    renderField(faceRecognitionField, runtimeControl('faceRecognition', {}, '刷脸签到'));
    expect(await screen.findByText('人脸识别插件未安装，请联系管理员安装后再使用')).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('button', { name: /上传照片比对/ }) as HTMLButtonElement).disabled).toBe(true));
  });
});
