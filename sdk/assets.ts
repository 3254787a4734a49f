/**
 * Generated-asset downloads (/v1/assets): a short-lived signed link to one asset of the
 * caller's embed (its `original` output, a power design's `schematic` SVG or `parts` list), and
 * the bytes behind a link. The link is fetched without the API token: the URL is the credential.
 */
import type { DownloadLink } from './generated.js';
import type { Transport } from './http.js';

/** The assets of an embed. */
export type AssetName = 'original' | 'schematic' | 'parts';

/** What to link to: one asset of one embed (`design`: which design of a `get_power_design` call). */
export interface AssetRequest {
  embedId: string;
  /** Default `original`. */
  asset?: AssetName;
  /** Default 0. */
  design?: number;
}

/** `client.assets`. */
export interface AssetsClient {
  /** A fresh link (valid at most 5 minutes) to one asset of the caller's own embed. */
  downloadLink(req: AssetRequest): Promise<DownloadLink>;
  /** The bytes behind a link from {@link AssetsClient.downloadLink}. */
  fetchLink(url: string): Promise<Uint8Array>;
  /** A fresh link, then its bytes. */
  download(req: AssetRequest): Promise<Uint8Array>;
}

/** Creates `client.assets`. */
export function createAssetsClient(http: Transport): AssetsClient {
  const downloadLink = async ({ embedId, asset, design }: AssetRequest): Promise<DownloadLink> =>
    (
      await http.send<DownloadLink>({
        method: 'POST',
        path: '/v1/assets/download-links',
        json: { embed_id: embedId, ...(asset ? { asset } : {}), ...(design === undefined ? {} : { design }) },
      })
    ).body;
  const fetchLink = async (url: string): Promise<Uint8Array> =>
    (await http.send<Uint8Array>({ method: 'GET', path: '', url, bytes: true })).body;
  return {
    downloadLink,
    fetchLink,
    download: async (req) => fetchLink((await downloadLink(req)).url),
  };
}
