/** Test helper: one field kind rendered inside the app's providers, its value owned as a form would own it. */
import { useState } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { controlTypeByKey, type ControlTypeKey } from '@tritium/shared/controls/index';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { MB } from '../api/upload.ts';
import type { Device, DisplayProps, FieldKind, RuntimeControl } from './field-types.ts';

export const FIELD_ID = 'field-under-test';

export function runtimeControl(key: ControlTypeKey, options: Record<string, unknown> = {}, label = '字段'): RuntimeControl {
  return { code: `F_${key}`, type: controlTypeByKey(key), options, label };
}

const newQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

export function renderField<V>(kind: FieldKind<V>, control: RuntimeControl, initial: V | null = null, device: Device = 'pc') {
  const onChange = vi.fn<(value: V | null) => void>();
  function Owner() {
    const [value, setValue] = useState<V | null>(initial);
    return (
      <div>
        <label htmlFor={FIELD_ID}>{control.label}</label>
        <kind.Edit
          control={control}
          value={value}
          onChange={(next) => {
            setValue(next);
            onChange(next);
          }}
          id={FIELD_ID}
          invalid={false}
          device={device}
          schemaCode="D000001form"
        />
      </div>
    );
  }
  const result = render(
    <WorkbenchProviders queryClient={newQueryClient()}>
      <Owner />
    </WorkbenchProviders>,
  );
  return { onChange, ...result };
}

export function renderDisplay<V>(kind: FieldKind<V>, props: Omit<DisplayProps<V>, 'device'>) {
  const Display = kind.Display!;
  return render(
    <WorkbenchProviders queryClient={newQueryClient()}>
      <Display device="pc" {...props} />
    </WorkbenchProviders>,
  );
}

export const policy = (scene: string, maxSizeMb: number) => ({
  scene,
  maxSizeMb,
  maxSizeBytes: maxSizeMb * MB,
  maxCount: null,
  accept: ['*/*'],
  imageCompression: null,
  // As the server answers it: the address carries the scene.
  uploadUrl: `/v1/file/upload?scene=${scene}`,
});

/** The file server: a policy per scene, uploads answered with ids f1, f2…, links for any id. */
export function stubFileServer() {
  let next = 0;
  return stubFetch({
    'GET /v1/file/policy/upload': (call) => {
      const scene = new URL(call.url, 'http://localhost').searchParams.get('scene')!;
      return ok(policy(scene, scene === 'image' ? 20 : 10));
    },
    'POST /v1/file/upload': (call) => {
      const query = new URL(call.url, 'http://localhost').searchParams;
      if (query.getAll('scene').length !== 1 || !/^[A-Za-z]+$/.test(query.get('scene') ?? '') || !query.get('fileName')) return fail(777, '参数校验失败');
      const body = call.body as File;
      next += 1;
      return ok({ fileId: `f${next}`, name: query.get('fileName'), size: body.size, contentType: body.type || 'application/octet-stream' });
    },
    'POST /v1/file/urls/byfileids': (call: RecordedCall) => {
      const { fileIds } = call.body as { fileIds: string[] };
      return ok({ list: fileIds.map((fileId) => ({ fileId, url: `/v1/file/download/${fileId}?signature=x`, expiresAt: '2026-11-23T10:00:00Z' })) });
    },
  });
}

/** A file that says it is this big without holding the bytes. */
export function fileOfSize(name: string, type: string, bytes: number) {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

