// The Gemini SDK's client class behind a module of its own. model.ts imports this module on first use (most
// sessions never call a web tool), and its static, named import lets esbuild drop the SDK's other exports:
// `await import('@google/genai')` kept them all (batches, caches, Live, ...).
export { GoogleGenAI } from '@google/genai';
