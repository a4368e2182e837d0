/** The storage PUT (tours §7): the file straight to the pre-signed URL with its headers; progress from XHR upload events. */

export class UploadHttpError extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(parseMessage(body) ?? `The upload failed (HTTP ${status}).`);
    this.name = 'UploadHttpError';
  }
}

function parseMessage(body: string): string | undefined {
  try {
    const m = (JSON.parse(body) as { message?: unknown }).message;
    return typeof m === 'string' && m ? m : undefined;
  } catch {
    return undefined;
  }
}

export interface PutOptions {
  url: string;
  file: Blob;
  headers: ReadonlyArray<{ key: string; value: string }>;
  /** Whole percent, 0 to 100. */
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
  createXhr?: () => XMLHttpRequest;
}

/** Resolves when storage answers 200; anything else rejects. */
export function putWithProgress({ url, file, headers, onProgress, signal, createXhr = () => new XMLHttpRequest() }: PutOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = createXhr();
    xhr.open('PUT', url);
    for (const h of headers) xhr.setRequestHeader(h.key, h.value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status === 200) {
        onProgress(100);
        resolve();
      } else reject(new UploadHttpError(xhr.status, typeof xhr.responseText === 'string' ? xhr.responseText : ''));
    };
    xhr.onerror = () => reject(new Error('The connection was lost during the upload.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
