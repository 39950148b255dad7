// The scripted Gemini endpoint lives in scripts/ because the build's code-cache warm-up uses it too and a
// build step never imports from test/. Tests keep importing it from here.
export * from '../../scripts/scripted-gemini.mjs';
