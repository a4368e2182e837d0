/**
 * The 16:9 thumbnail crop: the picture fills a 16:9 frame; drag it (or use the arrow keys) to place it and
 * the Zoom slider to scale it. The crop is drawn on a canvas and sent as a JPEG.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { THUMBNAIL_ASPECT } from '@roomwalk/shared';
import { TOUR_TEXTS } from './texts.js';

export interface CropState {
  zoom: number;
  /** Centre of the crop in source pixels. */
  cx: number;
  cy: number;
}

export interface CropRect {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
}

/** The source rectangle for a crop: the largest 16:9 area at zoom 1, shrunk by zoom, kept inside the picture. */
export function cropRect(width: number, height: number, s: CropState, aspect: number = THUMBNAIL_ASPECT): CropRect {
  const baseW = Math.min(width, height * aspect);
  const sw = baseW / Math.max(1, s.zoom);
  const sh = sw / aspect;
  const sx = Math.min(Math.max(0, s.cx - sw / 2), width - sw);
  const sy = Math.min(Math.max(0, s.cy - sh / 2), height - sh);
  return { sx, sy, sw, sh };
}

/** Output size: at most 1280x720, never larger than the crop itself. */
export function outputSize(r: CropRect): { width: number; height: number } {
  const width = Math.max(16, Math.round(Math.min(1280, r.sw)));
  return { width, height: Math.round(width / THUMBNAIL_ASPECT) };
}

export interface ThumbnailCropProps {
  image: HTMLImageElement;
  onChange: (rect: CropRect) => void;
}

export function ThumbnailCrop({ image, onChange }: ThumbnailCropProps) {
  const w = image.naturalWidth;
  const h = image.naturalHeight;
  const [state, setState] = useState<CropState>({ zoom: 1, cx: w / 2, cy: h / 2 });
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; y: number; cx: number; cy: number } | null>(null);
  const rect = cropRect(w, h, state);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reports when the rectangle's numbers or the image change (rect and onChange are new objects every render)
  useEffect(() => {
    onChange(rect);
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    ctx.drawImage(image, rect.sx, rect.sy, rect.sw, rect.sh, 0, 0, c.width, c.height);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rect.sx, rect.sy, rect.sw, rect.sh, image]);

  const move = useCallback(
    (dx: number, dy: number) =>
      setState((s) => {
        const r = cropRect(w, h, s);
        return { ...s, cx: r.sx + r.sw / 2 + dx, cy: r.sy + r.sh / 2 + dy };
      }),
    [w, h],
  );

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, cx: rect.sx + rect.sw / 2, cy: rect.sy + rect.sh / 2 };
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (!d) return;
    const scale = rect.sw / e.currentTarget.clientWidth || 1;
    setState((s) => ({ ...s, cx: d.cx - (e.clientX - d.x) * scale, cy: d.cy - (e.clientY - d.y) * scale }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const step = rect.sw / 20;
    const keys: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const k = keys[e.key];
    if (!k) return;
    e.preventDefault();
    move(k[0], k[1]);
  };

  return (
    <div className="thumb-crop">
      <canvas
        ref={canvas}
        width={640}
        height={360}
        className="thumb-crop-canvas"
        tabIndex={0}
        role="img"
        aria-label={`${TOUR_TEXTS.cropThumbnail}: drag or use the arrow keys to move the picture`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      />
      <label className="thumb-crop-zoom">
        {TOUR_TEXTS.zoom}
        <input
          type="range"
          min={1}
          max={4}
          step={0.05}
          value={state.zoom}
          onChange={(e) => setState((s) => ({ ...s, zoom: Number(e.target.value) }))}
        />
      </label>
    </div>
  );
}

/** Draws the crop and encodes it as a JPEG file. */
export function renderCrop(image: HTMLImageElement, rect: CropRect, name = 'thumbnail.jpg'): Promise<File> {
  const size = outputSize(rect);
  const c = document.createElement('canvas');
  c.width = size.width;
  c.height = size.height;
  const ctx = c.getContext('2d');
  if (!ctx) return Promise.reject(new Error('Canvas unavailable'));
  ctx.drawImage(image, rect.sx, rect.sy, rect.sw, rect.sh, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    c.toBlob(
      (blob) =>
        blob
          ? resolve(new File([blob], name.replace(/\.(png|jpe?g)$/i, '') + '.jpg', { type: 'image/jpeg' }))
          : reject(new Error('Could not encode the crop')),
      'image/jpeg',
      0.9,
    ),
  );
}

/** Loads an image file into an element for cropping. */
export function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('This image could not be read.'));
    };
    img.src = url;
  });
}
