import type { ComponentType } from 'react';
import { App as AntApp } from 'antd';

/**
 * A page past sign-in inside antd's whole App: App.useApp() there has modal as well as message and notification
 * (app-providers.tsx gives the sign-in pages the last two only). Loaded with the page (docs/decisions/0036).
 */
export function inWorkbenchFrame(Page: ComponentType): ComponentType {
  return function WorkbenchFrame() {
    return (
      <AntApp style={{ minHeight: '100vh' }}>
        <Page />
      </AntApp>
    );
  };
}
