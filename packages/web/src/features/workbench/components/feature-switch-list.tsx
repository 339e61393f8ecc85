import { Card, Flex, Skeleton, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { FEATURE_SWITCH_NAMES } from '../feature-switches.ts';
import { useFeatureSwitches } from '../hooks/use-workbench-data.ts';

/** The feature switches this engine runs with. */
export function FeatureSwitchList() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const switches = useFeatureSwitches();
  return (
    <Card title={t('workbench.switches')} size="small">
      {switches.isLoading ? (
        <Skeleton active />
      ) : (
        <Flex component="ul" wrap gap={token.marginSM} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {FEATURE_SWITCH_NAMES.map((name) => {
            const isOn = !!switches.data?.[name];
            return (
              <Flex component="li" key={name} align="center" gap={token.marginXXS} style={{ minWidth: 180 }}>
                <span>{t(`workbench.switchNames.${name}`)}</span>
                <Tag color={isOn ? 'success' : 'default'}>{isOn ? t('common.on') : t('common.off')}</Tag>
              </Flex>
            );
          })}
        </Flex>
      )}
    </Card>
  );
}
