// Where a key that is out of place belongs: a connector `extra` key (talker_first_audio,
// initial_codec_chunk_frames, ...) written under a stage or at the top level is not read there
// (under a stage it is passed on as a vLLM engine argument).
import { connectorExtraSchema } from './connectorKeys';
import { lookupKey, type MapSchema } from './keySpec';

/** `connectors.<name>.extra` for a connector extra key found in another map; undefined elsewhere. */
export function misplacedKeyHome(key: string, schema: MapSchema): string | undefined {
  if (schema === connectorExtraSchema) return undefined;
  return lookupKey(connectorExtraSchema, key) === undefined ? undefined : 'connectors.<name>.extra';
}
