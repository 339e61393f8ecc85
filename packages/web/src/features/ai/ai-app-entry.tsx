import { lazy, Suspense, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { aiApi, aiKeys } from './ai-api.ts';

const AppProposalDialog = lazy(() => import('./app-proposal-dialog.tsx').then((m) => ({ default: m.AppProposalDialog })));

/** 「AI 生成应用」beside 新建应用: shown only where the engine's AI is available (docs/decisions/0126), like the other AI entries. */
export function AiAppEntry({ onCreated }: { onCreated: (result: contracts.AppCreateResult) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const status = useQuery({ queryKey: aiKeys.status, queryFn: aiApi.status, staleTime: 60_000 });
  if (!status.data?.available && !open) return null;
  return (
    <>
      {/* An icon beside 新建应用 (the list's column is narrow), named by its tooltip and label. */}
      <Tooltip title={t('ai.app.entry')}>
        <Button size="small" type="text" aria-label={t('ai.app.entry')} icon={<ThunderboltOutlined />} onClick={() => setOpen(true)} />
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <AppProposalDialog
            open={open}
            onClose={() => setOpen(false)}
            onCreated={(result) => {
              setOpen(false);
              onCreated(result);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
