import { Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmKey, type SchemaChange } from '../api/form-design-api.ts';

interface PublishConfirmDialogProps {
  changes: SchemaChange[] | undefined;
  isPublishing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Publishing would lose data: each such change (table, column, what happens, rows affected), then the person decides. */
export function PublishConfirmDialog({ changes, isPublishing, onConfirm, onCancel }: PublishConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!changes}
      title={t('formDesigner.publish.confirmTitle')}
      okText={t('formDesigner.publish.ok')}
      okButtonProps={{ danger: true, loading: isPublishing }}
      cancelText={t('common.cancel')}
      onOk={onConfirm}
      onCancel={onCancel}
      width={640}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('formDesigner.publish.confirmIntro')}</Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        rowKey={(change) => `${change.kind}:${confirmKey(change)}`}
        dataSource={changes ?? []}
        columns={[
          { key: 'table', title: t('formDesigner.publish.table'), dataIndex: 'table' },
          { key: 'column', title: t('formDesigner.publish.column'), render: (_, change) => change.column ?? t('formDesigner.publish.wholeTable') },
          {
            key: 'change',
            title: t('formDesigner.publish.change'),
            render: (_, change) => t(`formDesigner.publish.kinds.${change.kind}`, { from: change.from ?? '--', to: change.to ?? '--' }),
          },
          { key: 'rows', title: t('formDesigner.publish.rows'), align: 'right', render: (_, change) => change.affectedRows ?? '--' },
        ]}
      />
    </Modal>
  );
}
