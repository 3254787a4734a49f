/**
 * The one rule for chat ids, shared by the chat routes and the engine's chat delivery, so every
 * chat id a run delivers to (the default `workflow:<definition id>` included) can be read back
 * through POST /v1/chats/messages.
 */
import { z } from 'zod';

export const CHAT_ID_RULE = 'must be 1 to 160 letters, digits, _, -, . or :';

export const ChatIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,160}$/, CHAT_ID_RULE);
