import { useState, type ReactNode } from 'react';
import { DatabaseOutlined, ShareAltOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PublishTemplateDialog } from './publish-template-dialog.tsx';
import { ShareAppDialog } from './share-app-dialog.tsx';
import { SampleDataDialog } from './sample-data-dialog.tsx';

type Action = 'publish' | 'share' | 'samples';
interface AppRef {
  code: string;
  displayName: string;
}

/**
 * The template entries of an app's menu (for its administrators): 发布为模板, 共享给其他组织, 示例数据; and the dialog
 * the chosen one opens. The workbench passes `moreActions` to the app list and renders `dialogs`.
 */
export function useTemplateAppActions(): { moreActions: (app: AppRef) => { key: string; icon: ReactNode; label: string; onSelect: () => void }[]; dialogs: ReactNode } {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ action: Action; app: AppRef } | null>(null);
  const moreActions = (app: AppRef) => [
    { key: 'template:publish', icon: <UploadOutlined />, label: t('templates.publish.menu'), onSelect: () => setOpen({ action: 'publish', app }) },
    { key: 'template:share', icon: <ShareAltOutlined />, label: t('templates.share.menu'), onSelect: () => setOpen({ action: 'share', app }) },
    { key: 'template:samples', icon: <DatabaseOutlined />, label: t('templates.sample.menu'), onSelect: () => setOpen({ action: 'samples', app }) },
  ];
  const close = () => setOpen(null);
  const dialogs =
    open?.action === 'publish' ? (
      <PublishTemplateDialog app={open.app} onClose={close} />
    ) : open?.action === 'share' ? (
      <ShareAppDialog app={open.app} onClose={close} />
    ) : open?.action === 'samples' ? (
      <SampleDataDialog app={open.app} onClose={close} />
    ) : null;
  return { moreActions, dialogs };
}
