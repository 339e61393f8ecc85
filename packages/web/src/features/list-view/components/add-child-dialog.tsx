import { useEffect, useState } from 'react';
import { App, Form, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { runtimeApi } from '../../form-runtime/api/runtime-api.ts';
import type { ViewField } from '../api/list-view-api.ts';
import { FilterValueInput } from '../../../components/filter-editor/filter-value-input.tsx';

// "添加下级" of the Hierarchy view (docs/decisions/0023): a new record under a parent, with the view's plain columns
// to fill in; saved by the form runtime (Submit), so every rule of the form applies, the tree's limits included.

const PLAIN = new Set(['string', 'text', 'decimal', 'int', 'bool', 'datetime']);
const NOT_EDITABLE = new Set(['system', 'formula', 'seqNo', 'rollup', 'associatedProperty', 'associationQuery', 'associationQueryMulti']);

export function AddChildDialog({ schemaCode, parent, parentTitle, parentField, fields, onClose, onSaved }: {
  schemaCode: string;
  /** The parent's ObjectId; null closes the dialog. */
  parent: string | null;
  parentTitle: string;
  parentField: string;
  fields: ViewField[];
  onClose: () => void;
  onSaved: (parentId: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const editable = fields.filter((f) => PLAIN.has(f.dataType) && !NOT_EDITABLE.has(f.controlType) && f.code !== parentField);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => setValues({}), [parent]);
  const save = async () => {
    if (!parent) return;
    setBusy(true);
    try {
      await runtimeApi.execute({ schemaCode, actionCode: 'Submit', values: { ...values, [parentField]: parent } });
      message.success(t('treeView.childAdded'));
      onSaved(parent);
      onClose();
    } catch (error) {
      const issues = isApiError(error) ? ((error.detail as { issues?: { message: string }[] } | undefined)?.issues ?? []) : [];
      message.error(isApiError(error) ? [error.message, ...issues.map((i) => i.message)].join('：') : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={parent !== null} title={t('treeView.addChildTitle')} onCancel={onClose} onOk={() => void save()} okText={t('treeView.save')} okButtonProps={{ loading: busy }} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('treeView.addChildUnder', { parent: parentTitle })}</Typography.Paragraph>
      <Form layout="vertical" component={false}>
        {editable.map((f) => (
          <Form.Item key={f.code} label={f.title}>
            <FilterValueInput field={f} value={values[f.code]} onChange={(value) => setValues((v) => ({ ...v, [f.code]: value }))} label={f.title} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
