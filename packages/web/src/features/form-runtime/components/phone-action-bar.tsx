import { App, Button, Dropdown, Flex, theme } from 'antd';
import { EllipsisOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSmartActions } from '../../smart-actions/smart-action-buttons.tsx';
import { ActionButton, splitPhoneActions, type FormAction } from './form-actions.tsx';

interface PhoneActionBarProps {
  actions: FormAction[];
}

/** The record's actions at the bottom of a phone screen: at most three buttons, the rest behind 更多. */
export function PhoneActionBar({ actions }: PhoneActionBarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { modal } = App.useApp();
  const { shown, more } = splitPhoneActions(actions);
  const pressFromMenu = (action: FormAction) => {
    if (!action.confirm) return action.onPress();
    modal.confirm({ title: action.confirm, okText: action.label, okButtonProps: { danger: action.danger }, cancelText: t('common.cancel'), onOk: action.onPress });
  };
  return (
    <Flex
      role="toolbar"
      aria-label={t('formRuntime.actions.bar')}
      gap="small"
      align="center"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 3,
        background: token.colorBgContainer,
        padding: `${token.paddingXS}px ${token.padding}px calc(${token.paddingXS}px + env(safe-area-inset-bottom, 0px))`,
        borderTop: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {more.length > 0 && (
        <Dropdown
          trigger={['click']}
          placement="topLeft"
          menu={{
            items: more.map((action) => ({ key: action.key, label: action.label, icon: action.icon, danger: action.danger, disabled: action.disabled || action.loading })),
            onClick: ({ key }) => {
              const action = more.find((candidate) => candidate.key === key);
              if (action) pressFromMenu(action);
            },
          }}
        >
          <Button icon={<EllipsisOutlined />}>{t('formRuntime.actions.More')}</Button>
        </Dropdown>
      )}
      {shown.map((action) => (
        <ActionButton key={action.key} action={action} block />
      ))}
    </Flex>
  );
}

interface PhoneRecordActionsProps extends PhoneActionBarProps {
  /** A saved record being read: its smart actions join the 更多 menu. */
  smart?: { schemaCode: string; objectId: string; onDone: () => void };
}

/** The phone bar of a record, with the smart actions this person may press on it. */
export function PhoneRecordActions({ actions, smart }: PhoneRecordActionsProps) {
  const smartActions = useSmartActions(
    { schemaCode: smart?.schemaCode ?? '', location: 'form', objectIds: smart ? [smart.objectId] : [], onDone: smart?.onDone ?? (() => undefined) },
    !!smart,
  );
  const fromSmart: FormAction[] = smart
    ? smartActions.actions.map((action) => ({
        key: `smart:${action.actionCode}`,
        label: action.label,
        icon: <ThunderboltOutlined />,
        loading: smartActions.busy === action.actionCode,
        disabled: smartActions.busy !== null && smartActions.busy !== action.actionCode,
        onPress: () => smartActions.press(action),
      }))
    : [];
  return <PhoneActionBar actions={[...actions, ...fromSmart]} />;
}
