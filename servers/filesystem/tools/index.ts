import type { ToolDefinition } from '../../common/tool.js';
import { glob } from './glob.js';
import { listDirectory } from './list-directory.js';
import { readFile } from './read-file.js';
import { readManyFiles } from './read-many-files.js';
import { replace } from './replace.js';
import { searchFileContent } from './search-file-content.js';
import { writeFile } from './write-file.js';

export const filesystemTools: ToolDefinition[] = [
  listDirectory,
  readFile,
  writeFile,
  replace,
  searchFileContent,
  glob,
  readManyFiles,
];
