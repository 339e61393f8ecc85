import { Button, Flex, Input } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FieldRow } from '../options/option-field.tsx';
import type { DesignerControl } from '../state/control-tree.ts';

/** A tab control's panes: rename, add, remove (a tab keeps one at least). Panes are not options, so they have their own editor. */
export function PanesEditor({ tab }: { tab: DesignerControl }) {
  const { t } = useTranslation();
  const { dispatch } = useDesignerContext();
  const panes = tab.panes ?? [];
  const addPane = () => {
    const index = panes.length + 1;
    dispatch({ type: 'addPane', tabUid: tab.uid, paneUid: `${tab.uid}.n${Date.now()}`, title: t('formDesigner.properties.newPane', { index }) });
  };
  return (
    <FieldRow label={t('formDesigner.properties.panes')}>
      <Flex vertical gap={4}>
        {panes.map((pane, i) => (
          <Flex key={pane.uid} gap={4} align="center">
            <Input
              aria-label={t('formDesigner.properties.paneTitle', { index: i + 1 })}
              value={pane.title}
              status={pane.title.trim() ? undefined : 'error'}
              onChange={(event) => dispatch({ type: 'renamePane', paneUid: pane.uid, title: event.target.value })}
            />
            <Button
              type="text"
              size="small"
              aria-label={t('formDesigner.properties.removePane', { index: i + 1 })}
              icon={<MinusCircleOutlined />}
              disabled={panes.length <= 1}
              onClick={() => dispatch({ type: 'removePane', paneUid: pane.uid })}
            />
          </Flex>
        ))}
        <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={addPane}>
          {t('formDesigner.properties.addPane')}
        </Button>
      </Flex>
    </FieldRow>
  );
}
