'use strict';
/**
 * The failure converter of every Temporal client and worker: Temporal's default converter with
 * `encodeCommonAttributes`, so a failure's message and stack trace travel as an encoded payload
 * (encrypted by the payload codec) instead of plain text in the history.
 *
 * CommonJS on purpose: the SDK `require()`s this file by path in the worker's main thread and
 * webpack bundles it into the workflow sandbox; plain require cannot load TypeScript.
 */
const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
