import { Button, Flex, Tag, Typography, theme } from 'antd';
import { ApartmentOutlined, ArrowLeftOutlined, CodeOutlined, CloudUploadOutlined, EyeOutlined, LinkOutlined, SafetyOutlined, SaveOutlined, ThunderboltOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export type SaveState = 'saved' | 'dirty' | 'saving';
export type PublishState = 'never' | 'unpublished' | 'published';

interface TopBarProps {
  formName: string;
  isWorkflow: boolean;
  saveState: SaveState;
  publishState: PublishState;
  isPublishing: boolean;
  onBack: () => void;
  onPreview: () => void;
  onSave: () => void;
  onPublish: () => void;
  /** Workflow forms: opens the workflow designer (docs/decisions/0018). */
  onDesignWorkflow?: () => void;
  /** Opens the form's permission groups (docs/decisions/0037); shown once the form is published. */
  onPermissions?: () => void;
  /** Opens the form's automations (issue 21); shown once the form is published. */
  onAutomations?: () => void;
  /** Opens the form's public fill-in link (issue 19); shown once the form is published. */
  onPublicLink?: () => void;
  /** Opens the form's print templates (issue 24); shown once the form is published. */
  onPrintTemplates?: () => void;
  /** Opens the form's custom code (issue 43). */
  onCode?: () => void;
}

/** The designer's top bar (ui.md): form name, save state, 预览, 保存, 发布. */
export function DesignerTopBar({ formName, isWorkflow, saveState, publishState, isPublishing, onBack, onPreview, onSave, onPublish, onDesignWorkflow, onPermissions, onAutomations, onPublicLink, onPrintTemplates, onCode }: TopBarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      component="header"
      align="center"
      justify="space-between"
      gap="middle"
      style={{ height: 56, padding: `0 ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <Flex align="center" gap="small" style={{ minWidth: 0 }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('formDesigner.backToApp')} onClick={onBack} />
        <Typography.Title level={4} ellipsis style={{ margin: 0 }}>
          {formName}
        </Typography.Title>
        {isWorkflow && <Tag>{t('formDesigner.workflowForm')}</Tag>}
        <Typography.Text type={saveState === 'dirty' ? 'warning' : 'secondary'} role="status" aria-label={t('formDesigner.saveState.label')}>
          {t(`formDesigner.saveState.${saveState}`)}
        </Typography.Text>
        <Tag color={publishState === 'published' ? 'green' : publishState === 'unpublished' ? 'orange' : 'default'}>{t(`formDesigner.publishState.${publishState}`)}</Tag>
      </Flex>
      <Flex gap="small">
        {isWorkflow && onDesignWorkflow && (
          <Button icon={<ApartmentOutlined />} onClick={onDesignWorkflow}>
            {t('workflowDesigner.entry')}
          </Button>
        )}
        {onPermissions && (
          <Button icon={<SafetyOutlined />} onClick={onPermissions}>
            {t('formPermission.entry')}
          </Button>
        )}
        {onAutomations && (
          <Button icon={<ThunderboltOutlined />} onClick={onAutomations}>
            {t('automation.entry')}
          </Button>
        )}
        {onCode && (
          <Button icon={<CodeOutlined />} onClick={onCode}>
            {t('codeEditor.entry')}
          </Button>
        )}
        {onPrintTemplates && (
          <Button icon={<PrinterOutlined />} onClick={onPrintTemplates}>
            {t('print.templates.entry')}
          </Button>
        )}
        {onPublicLink && (
          <Button icon={<LinkOutlined />} onClick={onPublicLink}>
            {t('externalForm.entry')}
          </Button>
        )}
        <Button icon={<EyeOutlined />} onClick={onPreview}>
          {t('formDesigner.actions.preview')}
        </Button>
        <Button icon={<SaveOutlined />} loading={saveState === 'saving'} onClick={onSave}>
          {t('formDesigner.actions.save')}
        </Button>
        <Button type="primary" icon={<CloudUploadOutlined />} loading={isPublishing} onClick={onPublish}>
          {t('formDesigner.actions.publish')}
        </Button>
      </Flex>
    </Flex>
  );
}
