import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { RobotOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { aiApi, aiKeys } from './ai-api.ts';

const AssistantDrawer = lazy(() => import('./assistant-drawer.tsx').then((m) => ({ default: m.AssistantDrawer })));

/** The top bar's AI assistant button: shown only where the engine's AI is available (docs/decisions/0124). */
export function AssistantEntry({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const status = useQuery({ queryKey: aiKeys.status, queryFn: aiApi.status, staleTime: 60_000 });
  // An open conversation stays open when the credit runs out in it: its last answer says so.
  if (!status.data?.available && !open) return null;
  return (
    <>
      {status.data?.available && (
        <Button type="text" icon={<RobotOutlined />} onClick={() => setOpen(true)}>
          {t('ai.assistant.open')}
        </Button>
      )}
      {open && (
        <Suspense fallback={null}>
          <AssistantDrawer open={open} onClose={() => setOpen(false)} userId={userId} />
        </Suspense>
      )}
    </>
  );
}
