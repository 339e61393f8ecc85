import { useState } from 'react';
import { Skeleton, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { runtimeApi, runtimeKeys } from '../api/runtime-api.ts';
import type { FormMode } from '../fields/field-types.ts';
import { RuntimeForm } from './runtime-form.tsx';

/**
 * A singleton module (单例表单): the engine's one record, shown in place. loaddata without an id answers that record
 * once it exists, else a new one to fill.
 */
export function SingletonForm({ schemaCode }: { schemaCode: string }) {
  const device = useIsPhone() ? 'phone' : 'pc';
  const { token } = theme.useToken();
  const existing = useQuery({ queryKey: [...runtimeKeys.record(schemaCode, undefined), 'singleton'], queryFn: () => runtimeApi.loadData(schemaCode), retry: false });
  const [opened, setOpened] = useState<{ objectId?: string; mode: FormMode } | null>(null);
  if (existing.isPending) return <Skeleton active />;
  const objectId = opened?.objectId ?? existing.data?.system.ObjectId ?? undefined;
  const mode = opened?.mode ?? (objectId ? 'View' : 'Create');
  return (
    <div style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, minHeight: 400, display: 'flex', flexDirection: 'column' }}>
      <RuntimeForm
        key={`${objectId ?? 'new'}-${mode}`}
        schemaCode={schemaCode}
        objectId={objectId}
        mode={mode}
        device={device}
        onOpen={(id, next) => setOpened({ objectId: id ?? undefined, mode: next })}
        onClose={() => setOpened({ objectId, mode: objectId ? 'View' : 'Create' })}
      />
    </div>
  );
}
