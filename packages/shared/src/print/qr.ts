import QRCode from 'qrcode';

// QR codes (issue 24) through the maintained `qrcode` package: its `create` gives the module matrix with no DOM or
// canvas, so the same SVG is drawn in the browser and on the server.

/** An SVG of `text` as a QR code (error correction M, a quiet zone of two modules), scaled to its box. */
export function qrSvg(text: string): string {
  const { modules } = QRCode.create(text || ' ', { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const quiet = 2;
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (modules.get(y, x)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }
  }
  const full = size + quiet * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" preserveAspectRatio="xMidYMid meet" shape-rendering="crispEdges" width="100%" height="100%"><rect width="${full}" height="${full}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
