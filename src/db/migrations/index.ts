import type { Migration } from 'kysely';
import * as initial from './2026_11_22_0001_initial.js';
import * as dataChanges from './2026_11_22_0002_data_changes.js';
import * as checkpointChunkStorage from './2026_11_24_0003_checkpoint_chunk_storage.js';
import * as queryLog from './2026_11_25_0004_query_log.js';
import * as searchLexicon from './2026_11_25_0005_search_lexicon.js';
import * as checkpointFormat from './2026_11_26_0006_checkpoint_format.js';

/** Every migration, in order. A static list: no file-system scanning at start-up. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_initial': initial,
  '2026_11_22_0002_data_changes': dataChanges,
  '2026_11_24_0003_checkpoint_chunk_storage': checkpointChunkStorage,
  '2026_11_25_0004_query_log': queryLog,
  '2026_11_25_0005_search_lexicon': searchLexicon,
  '2026_11_26_0006_checkpoint_format': checkpointFormat,
};
