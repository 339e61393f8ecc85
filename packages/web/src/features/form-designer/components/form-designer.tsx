import { useEffect, useMemo, useState } from 'react';
import { Layout, theme } from 'antd';
import { useNavigate } from 'react-router';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { FORM_AUTOMATION_PATH, FORM_CODE_PATH, FORM_PRINT_TEMPLATES_PATH, WORKFLOW_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import type { FormDesignLoadResult } from '../api/form-design-api.ts';
import { DesignCanvas } from '../canvas/design-canvas.tsx';
import { DesignerDnd } from '../canvas/designer-dnd.tsx';
import { ControlProblemsContext } from '../canvas/problems-context.ts';
import { DesignerContext, type DesignerContextValue } from '../hooks/designer-context.ts';
import { useDesigner } from '../hooks/use-designer.ts';
import { useLeaveGuard } from '../hooks/use-leave-guard.ts';
import { useRemoveControl } from '../hooks/use-remove-control.tsx';
import { useSavePublish } from '../hooks/use-save-publish.ts';
import { controlAtPath, draftProblems } from '../state/draft-problems.ts';
import { isDirty } from '../state/designer-state.ts';
import { DesignerTopBar, type PublishState } from './designer-top-bar.tsx';
import { Palette } from './palette.tsx';
import { PreviewDialog } from './preview-dialog.tsx';
import { PropertyPanel, type PropertyTab } from './property-panel.tsx';
import { PublishConfirmDialog } from './publish-confirm-dialog.tsx';
import { DesignerAppContext } from '../options/form-picker.tsx';
import { PermissionDrawer } from '../../form-permission/permission-drawer.tsx';
import { PublicLinkDrawer } from '../../external-form/public-link-drawer.tsx';
import { permissionFields } from '../dependent-options/designer-fields.ts';

interface FormDesignerProps {
  schemaCode: string;
  loaded: FormDesignLoadResult;
  /** Loads the server's draft again; resolves with the fresh answer. */
  reload: () => Promise<FormDesignLoadResult | undefined>;
}

/** The form designer's frame (ui.md): top bar, palette, canvas, properties. */
export function FormDesigner({ schemaCode, loaded, reload }: FormDesignerProps) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { state, dispatch, addControl, moveControl } = useDesigner(loaded);
  const [tab, setTab] = useState<PropertyTab>('control');
  const [isPreviewOpen, setPreviewOpen] = useState(false);
  const [isPermissionsOpen, setPermissionsOpen] = useState(false);
  const [isPublicLinkOpen, setPublicLinkOpen] = useState(false);
  const [publishInfo, setPublishInfo] = useState({ hasPublished: !!loaded.published, hasUnpublishedChanges: loaded.hasUnpublishedChanges });
  const dirty = isDirty(state);
  useLeaveGuard(dirty);

  const requestRemove = useRemoveControl(schemaCode, (uid) => dispatch({ type: 'remove', uid }));
  const actions = useSavePublish({
    schemaCode,
    state,
    dispatch,
    onFormProblem: () => setTab('form'),
    onControlProblem: () => setTab('control'),
    onSaved: () => setPublishInfo((info) => ({ ...info, hasUnpublishedChanges: true })),
    onPublished: () => setPublishInfo({ hasPublished: true, hasUnpublishedChanges: false }),
    onReload: async () => {
      const fresh = await reload();
      if (fresh) dispatch({ type: 'load', definition: fresh.draft.definition, version: fresh.draft.version });
    },
  });

  // Selecting a control shows its properties.
  useEffect(() => {
    if (state.selectedUid) setTab('control');
  }, [state.selectedUid]);

  // Leaving with unsaved changes asks the browser's own question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const { attributes, controls } = state;
  const problemUids = useMemo(() => {
    const uids = new Set<string>();
    for (const problem of draftProblems({ attributes, controls })) {
      const control = controlAtPath(controls, problem.path);
      if (control) uids.add(control.uid);
    }
    return uids;
  }, [attributes, controls]);

  const context: DesignerContextValue = { state, dispatch, addControl, moveControl, requestRemove: (control) => void requestRemove(control) };
  const publishState: PublishState = !publishInfo.hasPublished ? 'never' : dirty || publishInfo.hasUnpublishedChanges ? 'unpublished' : 'published';
  const pane = { overflow: 'auto', background: token.colorBgContainer } as const;

  return (
    <DesignerContext.Provider value={context}>
      <DesignerAppContext.Provider value={{ appCode: loaded.appCode, schemaCode }}>
      <ControlProblemsContext.Provider value={problemUids}>
        <Layout style={{ height: '100vh' }}>
          <DesignerTopBar
            formName={state.attributes.displayName}
            isWorkflow={loaded.nodeType === FunctionNodeType.WorkflowModule}
            saveState={actions.isSaving ? 'saving' : dirty ? 'dirty' : 'saved'}
            publishState={publishState}
            isPublishing={actions.isPublishing}
            onBack={() => navigate(`/workbench/app/${loaded.appCode}/${schemaCode}`)}
            onPreview={() => setPreviewOpen(true)}
            onSave={() => void actions.handleSave()}
            onPublish={() => void actions.handlePublish()}
            onDesignWorkflow={() => navigate(`${WORKFLOW_DESIGNER_PATH}?schemaCode=${encodeURIComponent(schemaCode)}`)}
            onPermissions={publishInfo.hasPublished ? () => setPermissionsOpen(true) : undefined}
            onPublicLink={publishInfo.hasPublished ? () => setPublicLinkOpen(true) : undefined}
            onAutomations={publishInfo.hasPublished ? () => navigate(`${FORM_AUTOMATION_PATH}/${encodeURIComponent(schemaCode)}`) : undefined}
            onCode={() => navigate(`${FORM_CODE_PATH}/${encodeURIComponent(schemaCode)}`)}
            onPrintTemplates={publishInfo.hasPublished ? () => navigate(`${FORM_PRINT_TEMPLATES_PATH}/${encodeURIComponent(schemaCode)}`) : undefined}
          />
          <DesignerDnd>
            <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
              <div style={{ ...pane, width: 248, flex: '0 0 248px', borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
                <Palette />
              </div>
              <main style={{ flex: 1, minWidth: 0, overflow: 'auto' }}>
                <DesignCanvas />
              </main>
              <div style={{ ...pane, width: 340, flex: '0 0 340px', borderInlineStart: `1px solid ${token.colorBorderSecondary}` }}>
                <PropertyPanel tab={tab} onTabChange={setTab} schemaCode={schemaCode} />
              </div>
            </div>
          </DesignerDnd>
        </Layout>
        {isPublicLinkOpen && <PublicLinkDrawer schemaCode={schemaCode} formName={state.attributes.displayName} fields={permissionFields(state.controls).filter((f) => !f.grid && f.type !== 'gridView')} onClose={() => setPublicLinkOpen(false)} />}
        {isPermissionsOpen && <PermissionDrawer schemaCode={schemaCode} open onClose={() => setPermissionsOpen(false)} fields={permissionFields(state.controls)} />}
        <PreviewDialog
          open={isPreviewOpen}
          onClose={() => setPreviewOpen(false)}
          controls={state.controls}
          titleWidth={state.attributes.titleWidth}
          pcWidth={state.attributes.modalWidth}
        />
        <PublishConfirmDialog
          changes={actions.pending?.changes}
          isPublishing={actions.isPublishing}
          onConfirm={() => void actions.confirmPublish()}
          onCancel={actions.cancelPublish}
        />
      </ControlProblemsContext.Provider>
      </DesignerAppContext.Provider>
    </DesignerContext.Provider>
  );
}
