import { useState, type ReactNode } from 'react';
import { Button, Tooltip } from 'antd';
import { DownloadOutlined, ImportOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { appKeys } from '../apps/api/apps-api.ts';
import { ExportPackageDialog } from './export-package-dialog.tsx';
import { ImportPackageDialog } from './import-package-dialog.tsx';

interface AppRef {
  code: string;
  displayName: string;
}

/**
 * App packages in the workbench (docs/decisions/0130): 导出应用包 in an app's menu (its administrators), 导入应用包
 * beside 新建应用 (administrators and app creators), and the dialogs they open.
 */
export function usePackageAppActions(): { moreActions: (app: AppRef) => { key: string; icon: ReactNode; label: string; onSelect: () => void }[]; importButton: ReactNode; dialogs: ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState<AppRef | null>(null);
  const [importing, setImporting] = useState(false);
  const moreActions = (app: AppRef) => [{ key: 'package:export', icon: <DownloadOutlined />, label: t('appPackage.export.menu'), onSelect: () => setExporting(app) }];
  const importButton = (
    <Tooltip title={t('appPackage.import.entry')}>
      <Button size="small" type="text" aria-label={t('appPackage.import.entry')} icon={<ImportOutlined />} onClick={() => setImporting(true)} />
    </Tooltip>
  );
  const dialogs = (
    <>
      {exporting && <ExportPackageDialog app={exporting} onClose={() => setExporting(null)} />}
      {importing && (
        <ImportPackageDialog
          onClose={() => setImporting(false)}
          onOpenApp={(appCode) => {
            setImporting(false);
            void queryClient.invalidateQueries({ queryKey: appKeys.list });
            void navigate(`/workbench/app/${appCode}`);
          }}
        />
      )}
    </>
  );
  return { moreActions, importButton, dialogs };
}
