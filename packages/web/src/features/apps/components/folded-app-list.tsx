import { Button, Flex, Tooltip, theme } from 'antd';
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AppDto } from '../api/apps-api.ts';
import { AppIcon } from './app-icon.tsx';

/** The app list folded to a strip: each app's icon (its name on hover) and the button that unfolds the list. */
export function FoldedAppList({ apps, onUnfold }: { apps: AppDto[] | undefined; onUnfold?: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <nav aria-label={t('apps.list.label')}>
      <Flex vertical align="center" gap={token.paddingXS}>
        <Tooltip title={t('apps.list.unfold')} placement="right">
          <Button type="text" aria-label={t('apps.list.unfold')} icon={<MenuUnfoldOutlined />} onClick={onUnfold} />
        </Tooltip>
        {apps?.map((app) => (
          <Tooltip key={app.code} title={app.displayName} placement="right">
            <NavLink
              to={`/workbench/app/${app.code}`}
              aria-label={app.displayName}
              style={({ isActive }) => ({ display: 'flex', padding: token.paddingXXS, borderRadius: token.borderRadius, background: isActive ? token.colorPrimaryBg : undefined })}
            >
              <AppIcon node={app} />
            </NavLink>
          </Tooltip>
        ))}
      </Flex>
    </nav>
  );
}
