/**
 * The largest file the filesystem server reads for the model (read_file, read_many_files, `@path`).
 * Shared so the host can tell the user about a too-big `@path` before anything is sent.
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
