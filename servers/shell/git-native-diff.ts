/**
 * What `diff.external` and `diff.<driver>.command` are pinned to, so that a repository's own program never
 * runs and `git diff` still prints the diff. Git has no setting that turns an external diff off, and an
 * empty value is not "unset" on every git (2.39, Debian 12's, runs the empty program and dies with
 * "external diff died"), so the pin must name a program that works: this one prints what git's own
 * diff would have printed for the pair.
 *
 * Git runs it through `sh -c '<value> "$@"'` once per changed file with the arguments
 * `path old-file old-hex old-mode new-file new-hex new-mode [new-path rename-header]` (only `path` for an
 * unmerged entry; `/dev/null`, `.` and `.` for a side that does not exist). The pair is diffed by git
 * itself (`--no-index`, with external diffs and textconv off), and its header is rewritten to name the
 * repository paths and modes rather than git's temporary files. What the pair cannot carry is lost:
 * options such as `-U5` or `--word-diff` apply only where git's own machinery runs (every command but
 * `git diff` and `--ext-diff`, which are the only ones that call an external diff).
 */

/** Rewrites the `--no-index` header: repository paths, the real modes, git's rename header. */
const HEADER_REWRITE = [
  'BEGIN { A = ENVIRON["A"]; B = ENVIRON["B"]; OM = ENVIRON["OM"]; NM = ENVIRON["NM"]; X = ENVIRON["X"]; sub(/\\n+$/, "", X) }',
  // Git ends a ---/+++ name that has a space with a tab.
  'function side(m, p) { return m == "." ? "/dev/null" : p }',
  'function label(m, p) { return side(m, p) (side(m, p) ~ / / ? "\\t" : "") }',
  'function head() { print "diff --git " A " " B; if (X != "") print X;',
  '  if (OM == ".") print "new file mode " NM; else if (NM == ".") print "deleted file mode " OM;',
  '  else if (OM != NM) { print "old mode " OM; print "new mode " NM } }',
  'body { print; next }',
  '/^diff --git / { head(); next }',
  '/^(old mode|new mode|new file mode|deleted file mode|similarity index|rename from|rename to) / { next }',
  '/^index / { if (X !~ /(^|\\n)index /) print "index " $2 (OM == NM ? " " OM : ""); next }',
  '/^--- / { print "--- " label(OM, A); next }',
  '/^\\+\\+\\+ / { print "+++ " label(NM, B); body = 1; next }',
  '/^Binary files / { print "Binary files " side(OM, A) " and " side(NM, B) " differ"; body = 1; next }',
  '{ print }',
  // Same content, different mode: --no-index sees the temporary file's mode and may print nothing.
  'END { if (NR == 0 && OM != NM) head() }',
].join('\n');

/** The shell text of the pinned value (no single quote may appear in the awk program above). */
export const NATIVE_DIFF_PROGRAM = [
  'gemini_mcp_native_diff() {',
  '  if [ "$#" -lt 7 ]; then printf "* Unmerged path %s\\n" "$1"; return 0; fi',
  '  git diff --no-index --no-ext-diff --no-textconv --no-color -- "$2" "$5" |',
  `  A="a/$1" B="b/\${8:-$1}" OM="$4" NM="$7" X="\${9-}" awk '${HEADER_REWRITE}' || true`,
  '}; gemini_mcp_native_diff',
].join('\n');
