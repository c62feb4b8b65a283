// Stands in for the build-time virtual module '@rancher/auto-import' (see jest.config.js): in a test
// there are no model/edit/detail folders to register.
export function importTypes(): void {
  // nothing to register
}
