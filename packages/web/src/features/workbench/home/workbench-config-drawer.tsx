import { useState } from 'react';
import { App as AntApp, Button, Drawer, Dropdown, Flex, List, Select, Switch, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { appsApi, type WorkbenchComponent, type WorkbenchConfig } from '../../apps/api/apps-api.ts';
import { HOME_COMPONENTS } from './home-components.tsx';
import { useSaveWorkbenchConfig } from './use-workbench-config.ts';

// Blocks that need a node chosen (a dashboard, a custom link) are added where those nodes are built.
const ADDABLE = ['appList', 'recentActivity', 'shortcuts', 'todo', 'messages'] as const;
const WIDTHS = [1, 2, 3, 4] as const;

interface WorkbenchConfigDrawerProps {
  open: boolean;
  current: WorkbenchConfig;
  onClose: () => void;
}

/** 自定义工作台: which blocks show, in what order and how wide; saved for this person. */
export function WorkbenchConfigDrawer({ open, current, onClose }: WorkbenchConfigDrawerProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const save = useSaveWorkbenchConfig();
  const [components, setComponents] = useState<WorkbenchComponent[]>(current.components);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setComponents(current.components);
  }
  const change = (index: number, patch: Partial<WorkbenchComponent>) => setComponents((list) => list.map((c, i) => (i === index ? { ...c, ...patch } : c)));
  const shift = (index: number, by: number) =>
    setComponents((list) => {
      const next = [...list];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved);
      return next;
    });
  const add = (type: WorkbenchComponent['type']) => setComponents((list) => [...list, { id: `${type}-${Date.now().toString(36)}`, type, visible: true, width: 4 }]);
  const titleOf = (c: WorkbenchComponent) => c.title || t(`workbench.components.${HOME_COMPONENTS[c.type].title}`);
  const restoreDefault = async () => setComponents((await appsApi.defaultConfig()).config.components);
  const submit = async () => {
    await save.mutateAsync({ components });
    void message.success(t('workbench.config.saved'));
    onClose();
  };

  return (
    <Drawer
      open={open}
      title={t('workbench.config.title')}
      size={440}
      onClose={onClose}
      footer={
        <Flex justify="space-between">
          <Button onClick={() => void restoreDefault()}>{t('workbench.config.restore')}</Button>
          <Flex gap="small">
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
              {t('common.save')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <List
        aria-label={t('workbench.config.blocks')}
        dataSource={components}
        renderItem={(component, index) => (
          <List.Item
            actions={[
              <Button key="up" size="small" type="text" icon={<ArrowUpOutlined />} disabled={index === 0} aria-label={t('workbench.config.up', { name: titleOf(component) })} onClick={() => shift(index, -1)} />,
              <Button key="down" size="small" type="text" icon={<ArrowDownOutlined />} disabled={index === components.length - 1} aria-label={t('workbench.config.down', { name: titleOf(component) })} onClick={() => shift(index, 1)} />,
              <Button key="remove" size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('workbench.config.remove', { name: titleOf(component) })} onClick={() => setComponents((list) => list.filter((_, i) => i !== index))} />,
            ]}
          >
            <Flex align="center" gap="small" style={{ flex: 1, minWidth: 0 }}>
              <Switch size="small" checked={component.visible} aria-label={t('workbench.config.visible', { name: titleOf(component) })} onChange={(visible) => change(index, { visible })} />
              <Typography.Text ellipsis style={{ flex: 1 }}>
                {titleOf(component)}
              </Typography.Text>
              <Select
                size="small"
                aria-label={t('workbench.config.width', { name: titleOf(component) })}
                value={component.width}
                style={{ width: 96 }}
                onChange={(width) => change(index, { width })}
                options={WIDTHS.map((width) => ({ value: width, label: t(`workbench.config.widths.w${width}`) }))}
              />
            </Flex>
          </List.Item>
        )}
      />
      <Dropdown menu={{ items: ADDABLE.map((type) => ({ key: type, label: t(`workbench.components.${HOME_COMPONENTS[type].title}`) })), onClick: ({ key }) => add(key as WorkbenchComponent['type']) }}>
        <Button block type="dashed" icon={<PlusOutlined />} style={{ marginTop: 12 }}>
          {t('workbench.config.add')}
        </Button>
      </Dropdown>
    </Drawer>
  );
}
