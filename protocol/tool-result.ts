/** The error classes of the tool contract, carried in `_meta` of every `isError` result. */
export type ErrorType =
  | 'invalid_tool_params'
  | 'execution_failed'
  | 'unhandled_exception'
  | 'path_not_in_workspace'
  | 'file_not_found'
  | 'target_is_directory'
  | 'file_too_large'
  | 'read_content_failure'
  | 'file_write_failure'
  | 'permission_denied'
  | 'no_space_left'
  | 'attempt_to_create_existing_file'
  | 'edit_preparation_failure'
  | 'edit_no_occurrence_found'
  | 'edit_expected_occurrence_mismatch'
  | 'edit_no_change'
  | 'grep_execution_error'
  | 'glob_execution_error'
  | 'ls_execution_error'
  | 'path_is_not_a_directory'
  | 'read_many_files_search_error'
  | 'shell_execute_error'
  | 'web_fetch_processing_error'
  | 'web_fetch_fallback_failed'
  | 'web_search_failed'
  | 'memory_tool_execution_error';

/** The user-facing display of a file-changing tool. */
export interface FileDiffDisplay {
  fileDiff: string;
  fileName: string;
  filePath: string;
  originalContent: string | null;
  newContent: string;
  isNewFile: boolean;
}

/** Third-party text is fenced so the model can tell it from instructions. */
export function wrapUntrusted(text: string): string {
  const safe = text.split('</untrusted_context>').join('&lt;/untrusted_context&gt;');
  return `<untrusted_context>\n${safe}\n</untrusted_context>`;
}

/** The inverse of wrapUntrusted, for showing a result to the user: the fence is for the model only. */
export function unwrapUntrusted(text: string): string {
  const m = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/.exec(text);
  return m ? m[1]!.split('&lt;/untrusted_context&gt;').join('</untrusted_context>') : text;
}
