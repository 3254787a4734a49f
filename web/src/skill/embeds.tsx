/**
 * Embed files are fetched over the session (not loaded by `<img src>` or a plain link), so a
 * failure shows its message in place and a download gets the API's file name; they are shown or
 * offered through `blob:` object URLs.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../api.js';
import { fetchEmbedFile } from './api.js';
import { Alert } from '../ui.js';

/** The formats of GET /v1/embeds/{id}/file, with what each holds. */
export const EMBED_DOWNLOADS = [
  { format: 'preview', label: 'Schematic preview (SVG)' },
  { format: 'full', label: 'Full result (JSON)' },
  { format: 'original', label: 'Original output (JSON)' },
] as const;

/** The embed's `preview` file as an image (an SVG loaded through `<img>`, never inlined). */
export function EmbedImage(props: { auth: string; embedId: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    fetchEmbedFile(props.auth, props.embedId, 'preview', abort.signal).then(
      (file) => {
        made = URL.createObjectURL(file.blob);
        setUrl(made);
      },
      (e) => {
        if (!abort.signal.aborted) setError(errorMessage(e));
      },
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [props.auth, props.embedId]);
  if (error) return <p class="error">{error}</p>;
  return url ? (
    <img class="schematic" src={url} alt={props.alt} />
  ) : (
    <p aria-live="polite">Loading the schematic…</p>
  );
}

/** Buttons that fetch each format with the key and save it via a temporary `<a download>`. */
export function EmbedDownloads(props: { auth: string; embedId: string }) {
  const [error, setError] = useState<string | null>(null);
  const download = async (format: string) => {
    setError(null);
    try {
      const file = await fetchEmbedFile(props.auth, props.embedId, format);
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <section class="downloads" aria-labelledby="downloads-title">
      <h3 id="downloads-title">Downloads</h3>
      <ul>
        {EMBED_DOWNLOADS.map((d) => (
          <li key={d.format}>
            <button type="button" class="link" data-format={d.format} onClick={() => void download(d.format)}>
              {d.label}
            </button>
          </li>
        ))}
      </ul>
      <Alert message={error} />
    </section>
  );
}
