import { Card, Flex, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppIcon } from '../apps/components/app-icon.tsx';
import type { TemplateDto } from './template-api.ts';

/** One template in the market or the empty workbench: icon, name, summary, what it holds. */
export function TemplateCard({ template, onOpen }: { template: TemplateDto; onOpen: (template: TemplateDto) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Card hoverable size="small" role="button" aria-label={template.name} tabIndex={0} onClick={() => onOpen(template)} onKeyDown={(e) => e.key === 'Enter' && onOpen(template)}>
      <Flex gap="small" align="flex-start">
        <AppIcon node={{ icon: template.icon, iconColor: template.iconColor, nodeType: FunctionNodeType.AppPackage }} size={40} />
        <Flex vertical style={{ minWidth: 0, flex: 1 }} gap={2}>
          <Flex gap={4} align="center" wrap>
            <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
              {template.name}
            </Typography.Text>
            {template.builtIn && <Tag color="blue">{t('templates.card.builtIn')}</Tag>}
            {template.isSharedToMe && <Tag color="purple">{t('templates.card.shared')}</Tag>}
            {template.isMine && <Tag>{t('templates.card.mine')}</Tag>}
          </Flex>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: token.fontSize * token.lineHeight * 2 }}>
            {template.summary || '--'}
          </Typography.Paragraph>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM, maxWidth: '100%' }}>
            {[t('templates.card.forms', { count: template.formCount }), template.sampleCount > 0 && t('templates.card.samples', { count: template.sampleCount }), t('templates.card.installs', { count: template.installCount })]
              .filter(Boolean)
              .join(' · ')}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
