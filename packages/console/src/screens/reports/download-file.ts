/**
 * Files the console hands the browser to save: reports (the API answers the file's bytes in base64 with its name and
 * type) and CSV made here.
 */

/** Decodes a base64 report. */
export function base64ToBytes(base64: string): Uint8Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

export function downloadBase64(
  fileContent: string,
  fileName: string,
  mimeType: string,
  doc: Document = document,
): void {
  downloadBlob(
    new Blob([base64ToBytes(fileContent) as BlobPart], { type: mimeType || 'application/octet-stream' }),
    fileName,
    doc,
  );
}

/** Saves text as a file (a chart's CSV). */
export function downloadText(
  text: string,
  fileName: string,
  type = 'text/csv;charset=utf-8',
  doc: Document = document,
): void {
  downloadBlob(new Blob([text], { type }), fileName, doc);
}

function downloadBlob(blob: Blob, fileName: string, doc: Document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
