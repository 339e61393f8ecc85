import { useMemo } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { ROOT } from '../state/control-tree.ts';
import { activePaneOf } from '../state/designer-state.ts';
import { CanvasEnvContext, type CanvasEnv } from './canvas-env.ts';
import { DropZone } from './drop-zone.tsx';

/** The centre pane: the form as people will see it, with a drop zone for every list of controls. */
export function DesignCanvas() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { state, dispatch } = useDesignerContext();
  const { titleWidth, modalWidth } = state.attributes;
  const activePanes = state.activePanes;

  const env = useMemo<CanvasEnv>(
    () => ({
      mode: 'design',
      device: 'pc',
      titleWidth,
      renderList: (args) => <DropZone {...args} />,
      activePane: (tab) => activePaneOf({ activePanes }, tab)?.uid,
      showPane: (tab, paneUid) => dispatch({ type: 'showPane', tabUid: tab.uid, paneUid }),
    }),
    [titleWidth, activePanes, dispatch],
  );

  return (
    <section
      aria-label={t('formDesigner.canvas.label')}
      onClick={() => dispatch({ type: 'select', uid: null })}
      style={{ minHeight: '100%', padding: token.paddingLG, background: token.colorBgLayout }}
    >
      <div
        style={{
          maxWidth: Math.max(modalWidth, 480),
          margin: '0 auto',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        <CanvasEnvContext.Provider value={env}>
          <DropZone
            containerId={ROOT}
            controls={state.controls}
            ancestors={[]}
            kind="stack"
            label={t('formDesigner.canvas.controls')}
            emptyText={t('formDesigner.canvas.empty')}
          />
        </CanvasEnvContext.Provider>
      </div>
    </section>
  );
}
