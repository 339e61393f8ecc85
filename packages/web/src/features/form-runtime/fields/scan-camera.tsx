/** The phone's camera reading bar and QR codes through the browser's BarcodeDetector (Chromium on Android, for one). */
import { useEffect, useRef, useState } from 'react';
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

const detectorClass = (): BarcodeDetectorClass | undefined => (globalThis as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;

/** The camera can read codes here: the detector exists and the page may ask for the camera. */
export const cameraScanAvailable = () => !!detectorClass() && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

/** How often a frame is read (ms). */
export const SCAN_INTERVAL = 200;

interface ScanCameraProps {
  open: boolean;
  title: string;
  /** Codes newly in view; one held in view is given once, until it leaves the view. */
  onCodes: (codes: string[]) => void;
  onClose: () => void;
  /** What the field says about the last scan (count, repeats). */
  status?: string;
}

export function ScanCamera({ open, title, onCodes, onClose, status }: ScanCameraProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const latest = useRef(onCodes);
  latest.current = onCodes;
  const [error, setError] = useState('');

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inView = new Set<string>();
    const Detector = detectorClass();
    setError('');
    const read = async (detector: BarcodeDetectorLike) => {
      if (stopped || !video.current) return;
      try {
        const seen = new Set((await detector.detect(video.current)).map((b) => b.rawValue).filter(Boolean));
        const fresh = [...seen].filter((code) => !inView.has(code));
        inView = seen;
        if (fresh.length && !stopped) {
          navigator.vibrate?.(60);
          latest.current(fresh);
        }
      } catch {
        // A frame not ready yet: the next one is read.
      }
      if (!stopped) timer = setTimeout(() => void read(detector), SCAN_INTERVAL);
    };
    (async () => {
      try {
        if (!Detector) throw new Error('BarcodeDetector');
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        if (stopped) return;
        if (video.current) {
          video.current.srcObject = stream;
          const playing = video.current.play?.();
          if (playing) await playing.catch(() => undefined);
        }
        await read(new Detector());
      } catch (failure) {
        const denied = failure instanceof Error && (failure.name === 'NotAllowedError' || failure.name === 'SecurityError');
        if (!stopped) setError(t(denied ? 'formRuntime.batchScan.cameraDenied' : 'formRuntime.batchScan.cameraFailed'));
      }
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [open, t]);

  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={onClose} okText={t('formRuntime.batchScan.done')} cancelButtonProps={{ style: { display: 'none' } }} destroyOnHidden>
      {error ? (
        <Alert type="warning" showIcon title={error} />
      ) : (
        <video ref={video} aria-label={t('formRuntime.batchScan.viewfinder')} muted playsInline style={{ width: '100%', maxHeight: '60vh' }} />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }} role="status">
        {status || t('formRuntime.batchScan.hint')}
      </Typography.Paragraph>
    </Modal>
  );
}
