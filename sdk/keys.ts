/** API keys (/v1/keys): create (the token is returned once), list, revoke. Needs the `keys` scope. */
import { seg, type Transport } from './http.js';
import type { ApiKey, CreateKeyInput, CreatedApiKey } from './types.js';

/** `client.keys`. */
export interface KeysClient {
  /** Creates a key. The token in the answer is shown only this once; store it safely. */
  create(input: CreateKeyInput): Promise<CreatedApiKey>;
  list(): Promise<ApiKey[]>;
  /** Revokes a key; requests with its token fail with 401 from then on. */
  revoke(keyId: string): Promise<void>;
}

/** Creates `client.keys`. */
export function createKeysClient(http: Transport): KeysClient {
  return {
    create: async (input) =>
      (await http.send<CreatedApiKey>({ method: 'POST', path: '/v1/keys', json: input })).body,
    list: async () => (await http.send<{ keys: ApiKey[] }>({ method: 'GET', path: '/v1/keys' })).body.keys,
    async revoke(keyId) {
      await http.send<null>({ method: 'DELETE', path: `/v1/keys/${seg(keyId)}` });
    },
  };
}
