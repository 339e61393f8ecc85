import { App as AntApp, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { formDesignApi, type ControlReference } from '../api/form-design-api.ts';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { systemFieldOf } from '../state/control-tree.ts';

function ReferenceList({ references, losesData }: { references: ControlReference[]; losesData: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="small">
      {references.length === 0 ? (
        <Typography.Text>{t('formDesigner.remove.noReferences')}</Typography.Text>
      ) : (
        <>
          <Typography.Text>{t('formDesigner.remove.references')}</Typography.Text>
          <ul aria-label={t('formDesigner.remove.references')} style={{ margin: 0, paddingInlineStart: 20 }}>
            {references.map((reference, i) => (
              <li key={`${reference.kind}-${reference.schemaCode}-${reference.name}-${i}`}>
                {t(`formDesigner.remove.kinds.${reference.kind}`)}：{reference.name}
                {reference.detail ? <Typography.Text type="secondary">（{reference.detail}）</Typography.Text> : null}
              </li>
            ))}
          </ul>
        </>
      )}
      {losesData && <Typography.Text type="warning">{t('formDesigner.remove.dataLoss')}</Typography.Text>}
    </Flex>
  );
}

/**
 * Removing a control (domain.md §5): first ask the server what depends on it, then say so and let the person
 * decide. The control leaves the draft only; its column goes when the form is published.
 */
export function useRemoveControl(schemaCode: string, onRemove: (uid: string) => void) {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  return async (control: DesignerControl) => {
    let references: ControlReference[];
    try {
      ({ references } = await formDesignApi.checkReference(schemaCode, control.code));
    } catch {
      // The client has shown why; nothing is removed without the check.
      return;
    }
    const type = controlTypeByKey(control.type);
    const losesData = !!type.column && !systemFieldOf(type);
    modal.confirm({
      title: t('formDesigner.remove.title', { name: controlName(control) }),
      content: <ReferenceList references={references} losesData={losesData} />,
      okText: t('formDesigner.remove.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => onRemove(control.uid),
    });
  };
}
