/**
 * Fetches an article's PDF with the session cookie and saves it under the server's file name, so a
 * refusal (an ended session, a suspended account) is shown on the page instead of a JSON file.
 */
export type DownloadResult =
  | { ok: true; filename: string }
  | { ok: false; status: number; message: string };

export async function downloadPdf(url: string, fallbackName: string): Promise<DownloadResult> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/pdf' } });
  } catch (err) {
    return { ok: false, status: 0, message: err instanceof Error ? err.message : String(err) };
  }
  if (!response.ok) {
    let message = '';
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // Not JSON: the status alone tells the reader nothing better than the page's own wording.
    }
    return { ok: false, status: response.status, message };
  }
  const blob = await response.blob();
  const filename = filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(blob, filename);
  return { ok: true, filename };
}

/** The file name in a Content-Disposition header: the UTF-8 `filename*` form first, then `filename`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(header);
  const name = plain?.[1] ?? plain?.[2];
  return name ? name.replace(/[\\/]/g, '_') : null;
}

function saveBlob(blob: Blob, filename: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has read the blob once the download starts; give slow machines a minute.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
