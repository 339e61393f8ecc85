import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AriaLabelConfig } from '@xyflow/react';

/** The flow canvas's screen-reader texts in the interface's language (React Flow's own are English). */
export function useFlowAriaLabels(): Partial<AriaLabelConfig> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      'node.a11yDescription.default': t('flowCanvas.node'),
      'node.a11yDescription.keyboardDisabled': t('flowCanvas.nodeMove'),
      'node.a11yDescription.ariaLiveMessage': ({ x, y }: { direction: string; x: number; y: number }) => t('flowCanvas.moved', { x, y }),
      'edge.a11yDescription.default': t('flowCanvas.edge'),
      'controls.ariaLabel': t('flowCanvas.controls'),
      'controls.zoomIn.ariaLabel': t('flowCanvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('flowCanvas.zoomOut'),
      'controls.fitView.ariaLabel': t('flowCanvas.fitView'),
      'controls.interactive.ariaLabel': t('flowCanvas.interactive'),
      'minimap.ariaLabel': t('flowCanvas.minimap'),
      'handle.ariaLabel': t('flowCanvas.handle'),
    }),
    [t],
  );
}
