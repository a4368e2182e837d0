/** Decodes a base64 report and downloads it under the given name (accounts §2). */
export function base64ToBytes(base64: string): Uint8Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

export function downloadBase64(fileContent: string, fileName: string, mimeType: string, doc: Document = document): void {
  const blob = new Blob([base64ToBytes(fileContent) as BlobPart], { type: mimeType || 'application/octet-stream' });
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
