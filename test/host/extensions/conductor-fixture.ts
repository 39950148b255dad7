import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';

/**
 * A stand-in for Google's conductor extension (not reachable offline): the same layout (a manifest, a context
 * file, `commands/conductor/newTrack.toml`) and a newTrack command whose steps follow conductor's: check the
 * set-up files, plan in plan mode, ask the user one question at a time, keep a todo list, draft spec and plan
 * in the plans folder, present the plan with exit_plan_mode, then write the track files and register the
 * track. The wording is ours; the tool names and the order of steps are what the flow tests replay.
 */
const NEW_TRACK = `description = "Plans a track, generates track-specific spec documents and updates the tracks file"
prompt = """
## 1.0 SYSTEM DIRECTIVE
You guide the user through creating a new Track (a feature or a bug fix) for the Conductor spec-driven
development framework. Check the result of every tool call; if one fails, stop and tell the user.

## 1.1 SETUP CHECK
Read conductor/product.md, conductor/tech-stack.md and conductor/workflow.md. If any is missing, stop and
say: "Conductor is not set up. Please run \`/conductor:setup\` to set up the environment."

## 2.0 NEW TRACK
1. Call \`enter_plan_mode\` with a short reason: nothing but the plan files is written before approval.
2. Call \`write_todos\` with the steps below, and update it as each one completes.
3. The track description is: {{args}}
4. Ask the user 2-3 questions with \`ask_user\`, one question per call, offering 2-3 choices each.
   If no user can answer, choose sensible defaults and say which.
5. Write the draft \`spec.md\` and \`plan.md\` (every task as \`- [ ] Task: ...\`) in the plans directory.
6. Call \`exit_plan_mode\` with \`plan_filename\` "plan.md" so the user approves the plan.
7. Once approved, create \`conductor/tracks/<track_id>/\` (track_id is \`shortname_YYYYMMDD\`) holding
   \`metadata.json\`, \`spec.md\`, \`plan.md\` and \`index.md\`.
8. Append the track to conductor/tracks.md as \`- [ ] **Track: <description>**\` with a link to its folder.
9. Say: "New track '<track_id>' has been created and added to the tracks file. You can now start
   implementation by running \`/conductor:implement\`."
"""
`;

/** Writes the extension into `dir` (a folder named conductor) and returns it. */
export function writeConductorExtension(dir: string): string {
  const files: Record<string, string> = {
    'gemini-extension.json': JSON.stringify({ name: 'conductor', version: '0.4.0', contextFileName: 'GEMINI.md' }),
    'GEMINI.md': 'Conductor keeps its project files in the conductor/ folder of the project.\n',
    'commands/conductor/newTrack.toml': NEW_TRACK,
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** A project that ran /conductor:setup: the context files and an empty tracks registry. */
export function writeConductorProject(cwd: string): void {
  const files: Record<string, string> = {
    'conductor/product.md': '# Product\nA notes app.\n',
    'conductor/tech-stack.md': '# Tech stack\nTypeScript, React.\n',
    'conductor/workflow.md': '# Workflow\nTests first.\n',
    'conductor/tracks.md': '# Tracks Registry\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(cwd, rel, '..'), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
}

export const TRACK = 'dark-mode_20261128';
export const STEPS = ['Check the set-up', 'Ask about the feature', 'Draft spec and plan', 'Write the track files'];
const todos = (done: number) =>
  STEPS.map((description, i) => ({
    description,
    status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
  }));
export const SPEC = '# Spec: dark mode\n\n## Overview\nA dark colour theme.\n';
const DRAFT_TASK = '- [ ] Task: Implement it\n';
const FINAL_TASK = '- [ ] Task: Implement the theme switch\n';
const DRAFT = `# Plan: dark mode\n\n## Phase 1\n- [ ] Task: Write tests for the theme switch\n${DRAFT_TASK}`;
export const PLAN = DRAFT.replace(DRAFT_TASK, FINAL_TASK);
const METADATA = JSON.stringify({ track_id: TRACK, type: 'feature', status: 'new', description: 'add dark mode' });
const INDEX = `# Track ${TRACK} Context\n\n- [Specification](./spec.md)\n- [Implementation Plan](./plan.md)\n- [Metadata](./metadata.json)\n`;
const REGISTRY_ENTRY = `\n---\n\n- [ ] **Track: add dark mode**\n*Link: [./tracks/${TRACK}/](./tracks/${TRACK}/)*\n`;

/**
 * The turns of a model following newTrack.toml, with Gemini CLI 0.61's tool names and arguments, as a
 * recorded 0.61 session has them. `plans` is the plans folder the system prompt names; without it the plan
 * files go by bare name (a plan in the plans folder, wherever each CLI keeps it).
 */
export function newTrackScript(cwd: string, plans?: string) {
  const track = (f: string) => join(cwd, 'conductor', 'tracks', TRACK, f);
  return [
    reply.calls(
      { id: 'r1', name: 'read_file', args: { file_path: join(cwd, 'conductor/product.md') } },
      { id: 'r2', name: 'read_file', args: { file_path: join(cwd, 'conductor/tech-stack.md') } },
      { id: 'r3', name: 'read_file', args: { file_path: join(cwd, 'conductor/workflow.md') } },
    ),
    reply.calls({ id: 'e1', name: 'enter_plan_mode', args: { reason: 'Plan the dark mode track' } }),
    reply.calls({ id: 't1', name: 'write_todos', args: { todos: todos(1) } }),
    reply.calls({
      id: 'a1',
      name: 'ask_user',
      args: {
        questions: [
          {
            question: 'Where should the theme switch live?',
            header: 'Switch',
            type: 'choice',
            options: [
              { label: 'Settings page', description: 'A toggle in settings' },
              { label: 'Header', description: 'An icon in the header' },
            ],
          },
        ],
      },
    }),
    // An "additive" question: several answers may apply, so the model asks for a multiple choice.
    reply.calls({
      id: 'a2',
      name: 'ask_user',
      args: {
        questions: [
          {
            question: 'Which parts should follow the theme? (Select all that apply)',
            header: 'Scope',
            type: 'choice',
            multiSelect: true,
            options: [
              { label: 'Editor', description: 'The note editor' },
              { label: 'Sidebar', description: 'The notes list' },
              { label: 'Dialogs', description: 'Pop-ups and menus' },
            ],
          },
        ],
      },
    }),
    // Conductor has the user confirm the drafted spec in a question, written with `\\n` escapes.
    reply.calls({
      id: 'a3',
      name: 'ask_user',
      args: {
        questions: [
          {
            question: `I've drafted the specification for this track. Please review the following:\\n\\n\`\`\`markdown\\n${SPEC.replaceAll('\n', '\\n')}\`\`\`\\n\\nDoes this accurately capture the requirements?`,
            header: 'Confirm Spec',
            type: 'choice',
            multiSelect: false,
            options: [
              { label: 'Approve', description: 'The spec is right' },
              { label: 'Revise', description: 'Change it first' },
            ],
          },
        ],
      },
    }),
    reply.calls({ id: 't2', name: 'write_todos', args: { todos: todos(2) } }),
    // 0.61's prompt names the plans folder relative to the project; a bare name is a plan too.
    reply.calls(
      {
        id: 'p1',
        name: 'write_file',
        args: { file_path: plans ? relative(cwd, join(plans, 'spec.md')) : 'spec.md', content: SPEC },
      },
      { id: 'p2', name: 'write_file', args: { file_path: 'plan.md', content: DRAFT } },
    ),
    reply.calls({
      id: 'p3',
      name: 'replace',
      args: {
        file_path: plans ? join(plans, 'plan.md') : 'plan.md',
        old_string: DRAFT_TASK,
        new_string: FINAL_TASK,
        instruction: 'Name the task after the theme switch.',
      },
    }),
    reply.calls({ id: 'x1', name: 'exit_plan_mode', args: { plan_filename: 'plan.md' } }),
    reply.calls({ id: 't3', name: 'write_todos', args: { todos: todos(3) } }),
    reply.calls(
      { id: 'f1', name: 'write_file', args: { file_path: track('metadata.json'), content: METADATA } },
      { id: 'f2', name: 'write_file', args: { file_path: track('spec.md'), content: SPEC } },
      { id: 'f3', name: 'write_file', args: { file_path: track('plan.md'), content: PLAN } },
      { id: 'f4', name: 'write_file', args: { file_path: track('index.md'), content: INDEX } },
    ),
    reply.calls({
      id: 'g1',
      name: 'replace',
      args: {
        file_path: join(cwd, 'conductor/tracks.md'),
        old_string: '# Tracks Registry\n',
        new_string: `# Tracks Registry\n${REGISTRY_ENTRY}`,
        instruction: 'Append the new track to the registry.',
      },
    }),
    reply.calls({ id: 't4', name: 'write_todos', args: { todos: todos(4) } }),
    reply.text(
      `New track '${TRACK}' has been created and added to the tracks file. You can now start implementation by running \`/conductor:implement\`.`,
    ),
  ];
}

/** The files the flow must leave in the project. */
export function expectTrackWritten(cwd: string): void {
  const dir = join(cwd, 'conductor', 'tracks', TRACK);
  expect(readFileSync(join(dir, 'spec.md'), 'utf8')).toBe(SPEC);
  expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toBe(PLAN);
  expect(JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8'))).toMatchObject({ track_id: TRACK });
  expect(readFileSync(join(dir, 'index.md'), 'utf8')).toBe(INDEX);
  expect(readFileSync(join(cwd, 'conductor/tracks.md'), 'utf8')).toBe(`# Tracks Registry\n${REGISTRY_ENTRY}`);
}
