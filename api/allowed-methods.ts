/**
 * Which methods a path answers, for the 405 answer of an undeclared method on a known path
 * (RFC 9110 15.5.6: `405 Method Not Allowed` with an `Allow` header). The table is filled from
 * Fastify's `onRoute` hook, so it covers every route of every plugin, including those other
 * modules add later, without any route declaring anything.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

interface RoutePattern {
  /** Matches a concrete, query-less path. */
  regex: RegExp;
  /** True for a pattern without parameters or wildcards. */
  literal: boolean;
  methods: Set<string>;
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** `/v1/workflows/:id/runs` → /^\/v1\/workflows\/[^/]+\/runs\/?$/ (`*` matches the rest). */
function patternRegex(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : escapeRegex(segment)))
    .join('/');
  return new RegExp(`^${body || ''}/?$`);
}

/** The routes of one app by URL pattern, with the methods each answers. */
export class AllowedMethods {
  private readonly patterns = new Map<string, RoutePattern>();

  add(url: string, methods: string | string[]): void {
    // A catch-all (the CORS preflight route `OPTIONS *`) says nothing about which paths exist.
    if (url === '*' || url === '/*') return;
    let entry = this.patterns.get(url);
    if (!entry) {
      entry = { regex: patternRegex(url), literal: !/[:*]/.test(url), methods: new Set() };
      this.patterns.set(url, entry);
    }
    for (const m of Array.isArray(methods) ? methods : [methods]) entry.methods.add(m.toUpperCase());
  }

  /**
   * The methods some route answers on this concrete path, sorted; empty for an unknown path.
   * With `literalOnly`, only routes without parameters count (`/v1/workflows/validate`, not
   * `/v1/workflows/:id`).
   */
  for(rawUrl: string, literalOnly = false): string[] {
    const path = rawUrl.split('?')[0]!;
    const found = new Set<string>();
    for (const { regex, literal, methods } of this.patterns.values()) {
      if ((literal || !literalOnly) && regex.test(path)) for (const m of methods) found.add(m);
    }
    return [...found].sort();
  }
}

/** Records every route of `app` (registered after this call) in a new {@link AllowedMethods}. */
export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const table = new AllowedMethods();
  app.addHook('onRoute', (route: RouteOptions) => table.add(route.url, route.method));
  return table;
}
