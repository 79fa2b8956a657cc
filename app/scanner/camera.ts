// The camera for scanning, loaded only when someone presses "Use camera" (ADR 0017): the browser's
// own BarcodeDetector where it exists (Chrome on Android: no download), else @zxing/browser, a
// second dynamic import so nobody downloads the decoder before they need it.

/** The symbologies on our labels (Code 128), manufacturers' cartons and vials (GS1 DataMatrix, GS1-128, EAN/UPC) and QR. */
const FORMATS = ["code_128", "data_matrix", "qr_code", "ean_13", "ean_8", "upc_a", "upc_e"];
const DETECT_EVERY_MS = 250;
const BACK_CAMERA: MediaStreamConstraints = { video: { facingMode: { ideal: "environment" } }, audio: false };

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type DetectorConstructor = new (options: { formats: string[] }) => BarcodeDetectorLike;

export interface CameraScan {
  stop(): void;
}

/** Shows the back camera in `video` and calls `onCode` once with the first code it reads. */
export async function startCamera(video: HTMLVideoElement, onCode: (code: string) => void): Promise<CameraScan> {
  const Detector = (globalThis as { BarcodeDetector?: DetectorConstructor }).BarcodeDetector;
  if (Detector) return withDetector(new Detector({ formats: FORMATS }), video, onCode);
  const { BrowserMultiFormatReader } = await import("@zxing/browser");
  let done = false;
  const controls = await new BrowserMultiFormatReader().decodeFromConstraints(BACK_CAMERA, video, (result, _, c) => {
    if (!result || done) return;
    done = true;
    c.stop();
    onCode(result.getText());
  });
  return { stop: () => controls.stop() };
}

async function withDetector(detector: BarcodeDetectorLike, video: HTMLVideoElement, onCode: (code: string) => void) {
  const stream = await navigator.mediaDevices.getUserMedia(BACK_CAMERA);
  video.srcObject = stream;
  await video.play();
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  const timer = setInterval(async () => {
    if (stopped || video.readyState < 2) return;
    const [found] = await detector.detect(video).catch(() => []);
    if (found?.rawValue && !stopped) {
      stop();
      onCode(found.rawValue);
    }
  }, DETECT_EVERY_MS);
  return { stop };
}
