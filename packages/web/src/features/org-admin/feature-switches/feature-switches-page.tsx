import { App, Card, Flex, Skeleton, Switch, Typography, theme } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HONOURED_FEATURE_SWITCHES, type HonouredFeatureSwitch } from '@tritium/shared/constants/feature-switches';
import { apiClient } from '../../../lib/api-client.ts';
import { featureSwitchesKey, useFeatureSwitches } from '../../workbench/hooks/use-workbench-data.ts';

const setSwitch = (name: HonouredFeatureSwitch, on: boolean) => apiClient.post<{ name: string; value: string }>('/v1/switch/set', { name, value: on ? '1' : '0' });

/** /admin/feature-switches: the switches the product honours, each on or off for the engine (docs/decisions/0115). */
export function FeatureSwitchesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const values = useFeatureSwitches();
  const change = useMutation({
    mutationFn: ({ name, on }: { name: HonouredFeatureSwitch; on: boolean }) => setSwitch(name, on),
    onSuccess: (_, { name, on }) => {
      void message.success(t(on ? 'featureSwitchSettings.turnedOn' : 'featureSwitchSettings.turnedOff', { name: t(`workbench.switchNames.${name}`) }));
      return queryClient.invalidateQueries({ queryKey: featureSwitchesKey });
    },
  });
  const isOn = (name: HonouredFeatureSwitch) => values.data?.[name] === true;
  return (
    <Card title={t('featureSwitchSettings.title')}>
      <Typography.Paragraph type="secondary">{t('featureSwitchSettings.hint')}</Typography.Paragraph>
      {values.isPending ? (
        <Skeleton active />
      ) : (
        <Flex component="ul" vertical style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {HONOURED_FEATURE_SWITCHES.map((name) => (
            <Flex component="li" key={name} align="center" justify="space-between" gap="middle" style={{ padding: `${token.paddingSM}px 0`, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
              <Flex vertical>
                <Typography.Text strong>{t(`workbench.switchNames.${name}`)}</Typography.Text>
                <Typography.Text type="secondary">{t(`featureSwitchSettings.purposes.${name}`)}</Typography.Text>
              </Flex>
              <Switch
                aria-label={t(`workbench.switchNames.${name}`)}
                checked={isOn(name)}
                loading={change.isPending && change.variables?.name === name}
                onChange={(on) => change.mutate({ name, on })}
              />
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}
