import { Empty, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AppDto } from '../api/apps-api.ts';
import { AppIcon } from './app-icon.tsx';

/** Apps as an icon grid: the phone's workbench and the 我的应用 block of the PC home. */
export function AppGrid({ apps, columns = 4, isAdministrator = false }: { apps: AppDto[]; columns?: number; isAdministrator?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (apps.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(isAdministrator ? 'apps.list.emptyAdmin' : 'apps.list.empty')} />;
  return (
    <ul
      aria-label={t('apps.list.label')}
      style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: token.padding, listStyle: 'none', margin: 0, padding: 0 }}
    >
      {apps.map((app) => (
        <li key={app.code}>
          <Link
            to={`/workbench/app/${app.code}`}
            style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: token.paddingXXS, color: token.colorText }}
          >
            <AppIcon node={app} size={44} />
            <Typography.Text ellipsis style={{ maxWidth: '100%', fontSize: token.fontSizeSM }}>
              {app.displayName}
            </Typography.Text>
          </Link>
        </li>
      ))}
    </ul>
  );
}
