/**
 * The icon provider interface: one for the Iconify-compatible upstream (`ICON_URL`), one for the
 * offline sets shipped as npm packages (the default). The skill and the SVG route see only this.
 */

/** A collection's public metadata (license and author as the set publishes them). */
export interface IconCollection {
  prefix: string;
  name: string;
  license: { spdx?: string | undefined; title?: string | undefined; url?: string | undefined } | undefined;
  author: { name: string; url?: string | undefined } | undefined;
}

/** One search hit: an icon id in provider order, before license filtering. */
export interface IconRef {
  prefix: string;
  name: string;
}

export interface IconSearchAnswer {
  icons: IconRef[];
  /** Metadata of every collection named in `icons`. */
  collections: Record<string, IconCollection>;
}

export interface IconSize {
  width: number;
  height: number;
}

/** Rendering options of the SVG route (validated before they get here). */
export interface SvgOptions {
  height: number;
  /** Replaces `currentColor`: a `#rgb`/`#rrggbb` hex colour. */
  color?: string | undefined;
}

/** Per-call context: abort signal, and a hook run right before each upstream request is sent. */
export interface IconCallContext {
  signal: AbortSignal;
  beforeRequest?: () => Promise<void>;
}

export interface IconProvider {
  readonly kind: 'offline' | 'upstream';
  /** Candidates in the provider's ranking; `prefixes` narrows to those collections. */
  search(
    query: { query: string; limit: number; prefixes?: string[] | undefined },
    ctx: IconCallContext,
  ): Promise<IconSearchAnswer>;
  /** Width and height of the named icons of one collection; aliases resolve to their parent. */
  sizes(prefix: string, names: string[], ctx: IconCallContext): Promise<Map<string, IconSize>>;
  /**
   * The version of a collection's icons when the provider knows one that changes whenever their
   * bytes may change (the offline sets: their package version); undefined otherwise.
   */
  version?(prefix: string): string | undefined;
  /** The raw (unsanitised) SVG text, or undefined when the icon does not exist. */
  svg(prefix: string, name: string, options: SvgOptions, ctx: IconCallContext): Promise<string | undefined>;
}

/** Iconify prefix and icon name syntax: lower-case letters, digits and single hyphens. */
export const ICON_PART = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;
