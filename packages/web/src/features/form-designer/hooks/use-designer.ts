import { useCallback, useReducer } from 'react';
import { App as AntApp } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ControlTypeKey } from '@tritium/shared/controls/index';
import type { FormDesignLoadResult } from '../api/form-design-api.ts';
import { checkAdd, checkMove, type DropCheck } from '../state/control-tree.ts';
import { clickTarget, designerReducer, initialState, newUid, type DropTarget } from '../state/designer-state.ts';

/** The designer's state with the checked add and move the palette and canvas use. */
export function useDesigner(loaded: FormDesignLoadResult) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [state, dispatch] = useReducer(designerReducer, loaded, (result) => initialState(result.draft.definition, result.draft.version));

  const refuse = useCallback(
    (result: Exclude<DropCheck, 'success'>) => void message.error({ content: t(`formDesigner.addRefused.${result}`), key: 'designer-refused' }),
    [message, t],
  );

  const addControl = (typeKey: ControlTypeKey, target: DropTarget = clickTarget(state)) => {
    const result = checkAdd(state.controls, typeKey, target.containerId);
    if (result !== 'success') {
      refuse(result);
      return false;
    }
    const paneTitles = [1, 2].map((index) => t('formDesigner.properties.newPane', { index }));
    dispatch({ type: 'add', typeKey, target, uid: newUid(), paneTitles });
    return true;
  };

  const moveControl = (uid: string, target: DropTarget) => {
    const result = checkMove(state.controls, uid, target.containerId);
    if (result !== 'success') {
      refuse(result);
      return false;
    }
    dispatch({ type: 'move', uid, target });
    return true;
  };

  return { state, dispatch, addControl, moveControl };
}
