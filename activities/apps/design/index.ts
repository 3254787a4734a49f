/**
 * What other modules may use of the design app: its bundled offline icon sets, which the icon
 * simulator serves over HTTP as the upstream would. Modules outside this folder import only this
 * file and `app.ts`.
 */
export { createOfflineProvider, offlineIndex, searchOffline } from './upstream/offline.js';
