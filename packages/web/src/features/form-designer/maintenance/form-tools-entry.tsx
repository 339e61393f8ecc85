import { useContext, useMemo, useState } from 'react';
import { Button, Divider, Typography } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { DesignerAppContext } from '../options/form-picker.tsx';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';
import { FormToolsDrawer } from './form-tools-drawer.tsx';
import { indexableControls } from './indexable-fields.ts';

function findSeqNo(controls: readonly DesignerControl[]): DesignerControl | undefined {
  for (const control of controls) {
    if (control.type === 'seqNo') return control;
    const inner = findSeqNo([...(control.controls ?? []), ...(control.panes ?? []).flatMap((pane) => pane.controls)]);
    if (inner) return inner;
  }
  return undefined;
}

/** The 表单属性 pane's way to 数据维护 (custom indexes, sequence number, rollup recompute) of the form being designed. */
export function FormToolsEntry() {
  const { t } = useTranslation();
  const app = useContext(DesignerAppContext);
  const { state } = useDesignerContext();
  const [isOpen, setOpen] = useState(false);
  const fields = useMemo(() => indexableControls(state.controls), [state.controls]);
  const seqNo = useMemo(() => findSeqNo(state.controls), [state.controls]);
  if (!app?.schemaCode) return null;
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('formTools.title')}
      </Divider>
      <Typography.Paragraph type="secondary">{t('formTools.entryHint')}</Typography.Paragraph>
      <Button block icon={<ToolOutlined />} onClick={() => setOpen(true)}>
        {t('formTools.entry')}
      </Button>
      {isOpen && <FormToolsDrawer schemaCode={app.schemaCode} fields={fields} seqNoName={seqNo ? controlName(seqNo) : undefined} onClose={() => setOpen(false)} />}
    </>
  );
}
