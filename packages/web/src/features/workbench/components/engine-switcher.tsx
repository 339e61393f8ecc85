import { Flex, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EngineDto } from '../api/workbench-api.ts';
import { useConnectedEngines } from '../hooks/use-workbench-data.ts';
import { useSwitchEngine } from '../hooks/use-switch-engine.ts';

const SWITCHER_ID = 'engine-switcher';

/** 切换组织: the engines the account has joined; ones joined as an external user are marked 外部. */
export function EngineSwitcher({ currentEngine }: { currentEngine: EngineDto }) {
  const { t } = useTranslation();
  const engines = useConnectedEngines();
  const switchEngine = useSwitchEngine();
  const list = engines.data?.list ?? [currentEngine];

  const handleChange = (engineCode: string) => {
    const engine = list.find((item) => item.engineCode === engineCode);
    if (engine && engineCode !== currentEngine.engineCode) switchEngine.mutate(engine);
  };

  return (
    <Flex align="center" gap="small">
      <Typography.Text type="secondary">
        <label htmlFor={SWITCHER_ID}>{t('workbench.switchEngine')}</label>
      </Typography.Text>
      <Select
        id={SWITCHER_ID}
        style={{ minWidth: 220 }}
        value={currentEngine.engineCode}
        loading={engines.isLoading || switchEngine.isPending}
        disabled={switchEngine.isPending}
        onChange={handleChange}
        // A plain-text label keeps the option's accessible name the engine name; the tag is drawn beside it.
        options={list.map((engine) => ({ value: engine.engineCode, label: engine.engineName, isPrimary: engine.isPrimary }))}
        optionRender={(option) => (
          <Flex align="center" gap="small">
            <span>{option.label}</span>
            {option.data.isPrimary === false && <Tag>{t('workbench.external')}</Tag>}
          </Flex>
        )}
      />
    </Flex>
  );
}
