/** The document's sections: one per module, in the order of the interface. */
export const TAGS = {
  search: 'Public search and lookup; docs/search.md',
  auth: "Login, logout, the current user and one's own password; docs/accounts.md",
  pages: 'The HTML pages, the login page and their assets; docs/pages.md',
  users: 'User accounts, admin guard; docs/accounts.md',
  departments: 'Service departments and the department filter, admin guard; docs/accounts.md',
  themes: 'The theme catalog and the themes of a region; docs/maintenance.md',
  regions: 'Regions: browsing and administration; docs/maintenance.md',
  permits: 'Permit browsing, details, deletion and filtering; docs/maintenance.md',
  snapshots: 'Permit risk snapshots; docs/maintenance.md',
  import: 'Workbook import: upload, preview, commit, template and sample; docs/import.md',
  files: 'The archive of imported workbooks; docs/import.md',
  checkpoints: 'Whole-database checkpoints, admin guard; docs/checkpoints.md',
  'operation-log': 'The operation log; docs/maintenance.md',
  statistics: 'Catalogue totals for the dashboard; docs/maintenance.md',
  'approval-departments': 'Mapping approval departments to service departments; docs/maintenance.md',
  service: 'Health, test routes and this document; docs/api.md',
} as const;

export type Tag = keyof typeof TAGS;
