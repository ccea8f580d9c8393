/** The document's sections: one per module, in the order of the interface. */
export const TAGS = {
  search: 'Public search and lookup; docs/search.md',
  auth: 'Login, logout, the current user and one\'s own password; docs/accounts.md',
  pages: 'The HTML pages, the login page and their assets (interface 4.2); docs/pages.md',
  users: 'User accounts (interface 4.3), admin guard; docs/accounts.md',
  departments: 'Service departments and the department filter (interface 4.4), admin guard; docs/accounts.md',
  themes: 'The theme catalog (interface 4.5) and the themes of a region (4.6); docs/maintenance.md',
  regions: 'Regions: browsing and administration; docs/maintenance.md',
  permits: 'Permit browsing, details, deletion and filtering (interface 4.6, 4.9); docs/maintenance.md',
  snapshots: 'Permit risk snapshots (interface 4.8); docs/maintenance.md',
  import: 'Workbook import: upload, preview, commit, template and sample (interface 4.5, 4.7); docs/import.md',
  files: 'The archive of imported workbooks (interface 4.7); docs/import.md',
  checkpoints: 'Whole-database checkpoints (interface 4.8), admin guard; docs/checkpoints.md',
  'operation-log': 'The operation log (interface 4.7); docs/maintenance.md',
  statistics: 'Catalogue totals for the dashboard; docs/maintenance.md',
  'approval-departments': 'Mapping approval departments to service departments (interface 4.9); docs/maintenance.md',
  service: 'Health, test routes and this document; docs/api.md',
} as const;

export type Tag = keyof typeof TAGS;
