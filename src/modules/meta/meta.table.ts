/** Small key/value facts shared by every instance (data version for search freshness, template metadata). */
export interface AppMetaTable {
  key: string;
  value: string;
}

export interface Tables {
  app_meta: AppMetaTable;
}
