/** Small key/value facts shared by every instance (data version for search freshness, template metadata). */
export interface AppMetaTable {
  key: string;
  value: string;
}

/** One committed change of searchable data, for the other instances to follow. */
export interface DataChangesTable {
  id: import('kysely').Generated<number>;
  /** The instance that made the change (it has applied it already). */
  origin: string;
  kind: 'permits' | 'all' | 'lexicon';
  /** JSON array of permit ids for kind 'permits'. */
  permit_ids: string | null;
  created_at: string;
}

export interface Tables {
  app_meta: AppMetaTable;
  data_changes: DataChangesTable;
}
