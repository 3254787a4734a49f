/** Types of scripts/build-web.mjs (plain Node, so `npm start` can run it before tsx). */
export function sourceHash(): string;
export function isBuildCurrent(): boolean;
export function ensureWebBuild(opts?: {
  force?: boolean;
  log?: (message: string) => void;
}): Promise<'built' | 'current'>;
