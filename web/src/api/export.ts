import type { AxiosRequestConfig } from 'axios';
import { http } from './client';
import { warn } from './feedback';

/** Reads the file name from `filename` header or Content-Disposition (filename* preferred). */
export function fileNameFrom(headers: Record<string, unknown>, fallback = 'export.xlsx'): string {
  const direct = headers['filename'];
  if (typeof direct === 'string' && direct) return safeDecode(direct);
  const cd = String(headers['content-disposition'] ?? '');
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(cd);
  if (star) return safeDecode(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(cd);
  if (plain) return safeDecode(plain[1].trim());
  return fallback;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export interface ExportRequest {
  url: string;
  /** POST sends `data` as JSON; GET sends `params`. */
  method?: 'POST' | 'GET';
  data?: unknown;
  params?: Record<string, unknown>;
  fallbackName?: string;
}

/**
 * Spec §7 Exports: requests a blob and saves it. If the server answers JSON instead (an envelope), its
 * message is shown as a warning when code is 0. Returns the saved file name, or null.
 */
export async function exportFile(req: ExportRequest): Promise<string | null> {
  const cfg: AxiosRequestConfig = {
    url: req.url,
    method: req.method ?? 'POST',
    data: req.data,
    params: req.params,
    responseType: 'blob',
  };
  const res = await http.request<Blob>(cfg);
  const blob = res.data;
  const type = String(res.headers['content-type'] ?? blob.type ?? '');
  if (type.includes('application/json')) {
    const body = JSON.parse(await blob.text()) as { code?: number; message?: string };
    if (body.code === 0 && body.message) warn(body.message);
    return null;
  }
  const name = fileNameFrom(res.headers as Record<string, unknown>, req.fallbackName);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 1000);
  return name;
}
