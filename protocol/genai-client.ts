// The Gemini SDK's client class, behind a module of its own that the host and the web server import with
// `await import()` when they first need a model client. Its static, named import lets esbuild drop the
// SDK's other exports: `await import('@google/genai')` kept them all (batches, caches, Live, ...), and a
// static import in a module loaded at start would evaluate the SDK there.
export { GoogleGenAI } from '@google/genai';
