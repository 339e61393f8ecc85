import { App, Button, Tooltip } from 'antd';
import { CodeOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listViewApi } from '../api/list-view-api.ts';

interface Props {
  schemaCode: string;
  title: string;
  actionName?: string;
  selected: string[];
  onDone: () => void;
}

/**
 * A list button that runs the form's server code (onListAction, docs/decisions/0118) with the records chosen; the list
 * is read again after it. The script's refusals and errors show as every other call's do.
 */
export function ScriptActionButton({ schemaCode, title, actionName, selected, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const run = useMutation({
    mutationFn: () => listViewApi.scriptAction({ schemaCode, actionName: actionName!, objectIds: selected }),
    onSuccess: () => {
      message.success(t('listView.scriptDone', { title }));
      onDone();
    },
  });
  const button = (
    <Button icon={<CodeOutlined />} loading={run.isPending} disabled={!actionName} onClick={() => run.mutate()}>
      {title}
    </Button>
  );
  return actionName ? button : <Tooltip title={t('listView.scriptNoAction')}>{button}</Tooltip>;
}
