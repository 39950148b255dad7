import type { ToolDefinition } from '../../common/tool.js';
import { createGlobTool, type GlobDeps } from './glob.js';
import { listDirectory } from './list-directory.js';
import { readFile } from './read-file.js';
import { readManyFiles } from './read-many-files.js';
import { replace } from './replace.js';
import { createSearchFileContentTool, type SearchDeps } from './search-file-content.js';
import { writeFile } from './write-file.js';

/** The server's tools; `deps` are the resources they use (the instance's, or the process's shared ones). */
export const filesystemTools = (deps: GlobDeps & SearchDeps): ToolDefinition[] => [
  listDirectory,
  readFile,
  writeFile,
  replace,
  createSearchFileContentTool(deps),
  createGlobTool(deps),
  readManyFiles,
];
