/**
 * AI Edit: a picture is drawn on a canvas, captured as a JPEG (quality 0.85) and posted with a preset
 * ('Remove Furniture', 'Modern Style') or a prompt to the AI worker's /inpainting; the answer is an image, shown for
 * 5 s. The worker address comes from the page's meta tag; without one the tool says it is not available yet.
 */
import { useEffect, useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { AI_EDIT_JPEG_QUALITY, AI_EDIT_PRESETS, ERROR_TEXTS, TIMINGS_MS, formatTexts } from '@roomwalk/shared';
import { readMeta } from '../../config/page-config.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField } from '../../ui/form-field.js';
import { loadImage } from './thumbnail-crop.js';
import { TOUR_TEXTS } from './texts.js';

const AI_WORKER_META = 'roomwalk-ai-worker-url';
type State = 'idle' | 'active' | 'processing' | 'success' | 'error';

/** Captures a canvas as a JPEG blob; fails with the spec's message when it cannot. */
function captureCanvas(canvas: HTMLCanvasElement | null): Promise<Blob> {
  return new Promise((resolve, reject) => {
    if (!canvas || !canvas.width) return reject(new Error(ERROR_TEXTS.captureFailed));
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error(ERROR_TEXTS.captureFailed))),
      'image/jpeg',
      AI_EDIT_JPEG_QUALITY,
    );
  });
}

export default function AiEditDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const worker = readMeta(AI_WORKER_META).replace(/\/+$/, '');
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<State>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');

  useEffect(() => {
    if (state !== 'success') return;
    const t = setTimeout(() => {
      setResult(null);
      setState('active');
    }, TIMINGS_MS.aiEditResult);
    return () => clearTimeout(t);
  }, [state]);

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    const img = await loadImage(file).catch(() => null);
    const c = canvas.current;
    if (!img || !c) return;
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    c.getContext('2d')?.drawImage(img, 0, 0);
    setState('active');
  };

  const run = async (action: string, text: string) => {
    setMessage(null);
    setState('processing');
    try {
      const image = await captureCanvas(canvas.current);
      const form = new FormData();
      form.append('image', image, 'image.jpg');
      form.append('prompt', text);
      form.append('width', String(canvas.current!.width));
      form.append('height', String(canvas.current!.height));
      const res = await fetch(`${worker}/inpainting`, { method: 'POST', body: form });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      setResult(URL.createObjectURL(await res.blob()));
      setState('success');
    } catch (e) {
      const m = (e as Error).message;
      setMessage(m === ERROR_TEXTS.captureFailed ? m : formatTexts.aiEditError(action, m));
      setState('error');
    }
  };

  return (
    <Dialog
      open={open}
      label={TOUR_TEXTS.aiEdit}
      onClose={onClose}
      persistent={state === 'processing'}
      footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}
    >
      {!worker ? (
        <p role="status">{ERROR_TEXTS.notAvailableYet}</p>
      ) : (
        <div className="stack">
          <FormField label="Picture" type="file" accept="image/*" onChange={(e) => void onPick(e.target.files?.[0])} />
          <canvas
            ref={canvas}
            className="ai-edit-canvas"
            hidden={state === 'idle' || !!result}
            aria-label="Picture to edit"
            role="img"
          />
          {result ? <img src={result} alt="AI result" className="ai-edit-canvas" /> : null}
          <div className="row">
            {Object.values(AI_EDIT_PRESETS).map((p) => (
              <SlButton
                key={p.label}
                disabled={state === 'idle' || state === 'processing'}
                onClick={() => void run(p.label, p.prompt)}
              >
                {p.label}
              </SlButton>
            ))}
          </div>
          <FormField label="Prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
          <SlButton
            variant="primary"
            loading={state === 'processing'}
            disabled={state === 'idle' || !prompt.trim()}
            onClick={() => void run('prompt', prompt.trim())}
          >
            {TOUR_TEXTS.aiEdit}
          </SlButton>
          {message ? (
            <p className="form-failure" role="alert">
              {message}
            </p>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}
