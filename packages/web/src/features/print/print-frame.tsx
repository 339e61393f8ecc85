import { forwardRef, useImperativeHandle, useRef } from 'react';

/** What the print page can ask of the frame: the browser's print dialog for the rendered template alone. */
export interface PrintFrameHandle {
  print(): void;
}

/**
 * The rendered template in a frame of its own (docs/decisions/0050): its @page size, margins and page numbers are the
 * frame document's, so the browser prints exactly what the PDF job makes, and nothing of the app around it.
 */
export const PrintFrame = forwardRef<PrintFrameHandle, { html: string; title: string }>(function PrintFrame({ html, title }, ref) {
  const frame = useRef<HTMLIFrameElement>(null);
  useImperativeHandle(ref, () => ({ print: () => frame.current?.contentWindow?.print() }), []);
  // On a narrow screen the paper is shown scaled to fit; only the screen's view (print keeps its real size).
  const fit = () => {
    const doc = frame.current?.contentDocument;
    const width = doc?.documentElement.scrollWidth ?? 0;
    const ratio = width ? Math.min(1, (frame.current!.clientWidth - 8) / width) : 1;
    if (!doc || ratio >= 1) return;
    const style = doc.createElement('style');
    style.textContent = `@media screen { body { zoom: ${ratio.toFixed(3)}; } }`;
    doc.head.appendChild(style);
  };
  return <iframe ref={frame} title={title} srcDoc={html} onLoad={fit} style={{ border: 0, width: '100%', height: '100%', minHeight: 480, background: '#e9ecef' }} />;
});
