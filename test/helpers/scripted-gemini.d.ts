export * from '../../scripts/scripted-gemini.mjs';
