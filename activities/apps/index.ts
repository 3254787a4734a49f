/**
 * The catalogue: every app the platform serves. Adding an app is one folder under
 * activities/apps/ plus one line here.
 */
import type { AppDefinition } from '../registry/define.js';
import { designApp } from './design/app.js';
import { electronicsApp } from './electronics/app.js';
import { encyclopediaApp } from './encyclopedia/app.js';
import { hostingApp } from './hosting/app.js';

export const APPS: readonly AppDefinition[] = [designApp, electronicsApp, encyclopediaApp, hostingApp];
