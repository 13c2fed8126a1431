// The package's types reach `require` only (its ESM entry is a generated wrapper without them):
// the one member config uses, as its lib/index.d.ts declares it.
declare module 'mongodb-connection-string-url' {
  export class ConnectionString {
    constructor(uri: string, options?: { looseValidation?: boolean });
  }
}
