/** What every server's entry parses from its command line (the transport layer reads it too). */
export interface CommonFlags {
  transport: 'stdio' | 'http';
  port: number;
  host: string;
  token?: string;
  roots: string[];
  projectTempDir?: string;
  debug: boolean;
}

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;
