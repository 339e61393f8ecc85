/** Renderings of the controls that hold no data: group titles, descriptions, labels and buttons. */
import { Button, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ControlTypeKey } from '@tritium/shared/controls/index';
import { controlName } from '../labels.ts';
import type { WidgetProps, Widget } from './widget-types.ts';

function GroupTitleWidget({ control }: WidgetProps) {
  const { token } = theme.useToken();
  return (
    <Typography.Title level={5} style={{ margin: 0, paddingBottom: token.paddingXS, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      {controlName(control)}
    </Typography.Title>
  );
}

// The description is stored as sanitised HTML; the canvas shows its text only.
const plain = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

function DescriptionWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  const content = typeof control.options.content === 'string' ? plain(control.options.content) : '';
  return (
    <Typography.Paragraph type={content ? undefined : 'secondary'} style={{ margin: 0 }}>
      {content || t('formDesigner.widgets.description')}
    </Typography.Paragraph>
  );
}

function LabelWidget({ control }: WidgetProps) {
  return <Typography.Text>{controlName(control)}</Typography.Text>;
}

function ButtonWidget({ control }: WidgetProps) {
  return <Button>{controlName(control)}</Button>;
}

export const LAYOUT_WIDGETS: Readonly<Partial<Record<ControlTypeKey, Widget>>> = {
  groupTitle: GroupTitleWidget,
  description: DescriptionWidget,
  label: LabelWidget,
  button: ButtonWidget,
  advancedButton: ButtonWidget,
};
