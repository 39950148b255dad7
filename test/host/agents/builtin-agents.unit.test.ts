import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TIME_MINUTES } from '../../../host/agents/agent-definition.js';
import { CODEBASE_INVESTIGATOR, codebaseInvestigator } from '../../../host/agents/builtin-agents.js';

describe('codebaseInvestigator', () => {
  const def = codebaseInvestigator();

  it("0.61's name, limits and temperature, on the session's model", () => {
    expect(def).toMatchObject({
      name: CODEBASE_INVESTIGATOR,
      displayName: 'Codebase Investigator Agent',
      model: 'inherit',
      temperature: 0.1,
      maxTurns: 50,
      timeoutMinutes: DEFAULT_MAX_TIME_MINUTES,
      source: 'built-in',
    });
    expect(DEFAULT_MAX_TIME_MINUTES).toBe(10);
  });

  it('read-only tools only: it can look, never change anything', () => {
    expect(def.tools).toEqual(['list_directory', 'read_file', 'glob', 'grep_search']);
  });

  it("takes the parent's prompt as its objective", () => {
    expect(def.inputName).toBe('objective');
    expect(def.query).toContain('<objective>\n${objective}\n</objective>');
  });

  it('answers with a JSON report whose three fields are all required', () => {
    expect(def.output?.name).toBe('report');
    const schema = def.output?.schema as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(['SummaryOfFindings', 'ExplorationTrace', 'RelevantLocations']);
    expect(Object.keys(schema.properties)).toEqual(schema.required);
  });

  it('each call builds a fresh definition: changing one changes no other', () => {
    const a = codebaseInvestigator();
    a.tools?.push('run_shell_command');
    a.maxTurns = 1;
    expect(codebaseInvestigator().tools).toHaveLength(4);
    expect(codebaseInvestigator().maxTurns).toBe(50);
  });
});
