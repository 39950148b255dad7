import type {
  CountTokensParameters,
  CountTokensResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { FatalAuthenticationError } from '../errors.js';
import { createModelFetch } from './model-fetch.js';
import { DEFAULT_MODEL } from './models.js';

/** The thin seam between the chat and the model API; fakes and recorders wrap or replace it. */
export interface ContentGenerator {
  generateContentStream(req: GenerateContentParameters): Promise<AsyncGenerator<GenerateContentResponse>>;
  generateContent(req: GenerateContentParameters): Promise<GenerateContentResponse>;
  countTokens(req: CountTokensParameters): Promise<CountTokensResponse>;
  /** Where requests go, named in errors when nothing answers there. */
  readonly endpoint?: string;
}

/** Missing or unusable credentials: exit code 41. */
export class AuthError extends FatalAuthenticationError {
  constructor(message: string) {
    super(message);
    this.name = 'AuthError';
  }
}

/**
 * The model the user chose, as written (an alias such as `auto` or `pro` stays one: its fallbacks depend
 * on it): `-m` beats `GEMINI_MODEL` beats `model.name` beats Gemini CLI's default, `auto`.
 */
export function resolveModel(cliModel: string | undefined, env: NodeJS.ProcessEnv, settingsModel: unknown): string {
  const fromSettings = typeof settingsModel === 'string' && settingsModel.trim() ? settingsModel.trim() : undefined;
  return cliModel?.trim() || env.GEMINI_MODEL?.trim() || fromSettings || DEFAULT_MODEL;
}

export type AuthKind = 'gemini-api-key' | 'vertex-ai';

export interface AuthConfig {
  kind: AuthKind;
  apiKey?: string;
  project?: string;
  location?: string;
  baseUrl?: string;
}

const truthy = (v: string | undefined): boolean => v !== undefined && /^(1|true|yes)$/i.test(v.trim());

const WHAT_TO_SET =
  'Set GEMINI_API_KEY (or GOOGLE_API_KEY) to an API key from https://aistudio.google.com/apikey, or set ' +
  'GOOGLE_GENAI_USE_VERTEXAI=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION to use Vertex AI.';

/**
 * Gemini CLI's sign-ins that go through Google's Code Assist service with Google credentials, which
 * gemini-mcp does not speak. Most Gemini CLI users chose the first, so their settings file names it: the
 * error says that, rather than only that no key was found.
 */
const GEMINI_CLI_SIGN_INS: Record<string, string> = {
  'oauth-personal': 'Login with Google',
  'cloud-shell': "Cloud Shell's credentials",
  'compute-default-credentials': "the machine's default Google credentials",
};

function noCredentials(selectedType: unknown): AuthError {
  const signIn = typeof selectedType === 'string' ? GEMINI_CLI_SIGN_INS[selectedType] : undefined;
  if (!signIn) return new AuthError(`No Gemini credentials found. ${WHAT_TO_SET}`);
  return new AuthError(
    `Your settings choose ${signIn} (security.auth.selectedType "${selectedType}"), Gemini CLI's sign-in ` +
      'through Google Code Assist, which gemini-mcp does not offer: it uses a Gemini API key or Vertex AI. ' +
      `${WHAT_TO_SET} Gemini CLI's own sign-in is not read or changed.`,
  );
}

/** Decides the auth method from the environment, or throws an AuthError naming what to set. */
export function resolveAuth(env: NodeJS.ProcessEnv, selectedType?: unknown): AuthConfig {
  const apiKey = env.GEMINI_API_KEY?.trim() || env.GOOGLE_API_KEY?.trim() || undefined;
  const baseUrl = env.GOOGLE_GEMINI_BASE_URL?.trim() || undefined;
  const vertex = selectedType === 'vertex-ai' || truthy(env.GOOGLE_GENAI_USE_VERTEXAI);
  if (vertex) {
    const project = env.GOOGLE_CLOUD_PROJECT?.trim() || undefined;
    const location = env.GOOGLE_CLOUD_LOCATION?.trim() || undefined;
    const expressKey = env.GOOGLE_API_KEY?.trim() || undefined;
    if (expressKey)
      return { kind: 'vertex-ai', apiKey: expressKey, baseUrl: env.GOOGLE_VERTEX_BASE_URL?.trim() || undefined };
    if (project && location)
      return { kind: 'vertex-ai', project, location, baseUrl: env.GOOGLE_VERTEX_BASE_URL?.trim() || undefined };
    throw new AuthError(
      'Vertex AI is selected (GOOGLE_GENAI_USE_VERTEXAI) but not configured: set GOOGLE_CLOUD_PROJECT and ' +
        'GOOGLE_CLOUD_LOCATION (with application default credentials), or GOOGLE_API_KEY for express mode.',
    );
  }
  if (!apiKey) throw noCredentials(selectedType);
  return { kind: 'gemini-api-key', apiKey, baseUrl };
}

/**
 * The @google/genai implementation. SDK-level retries stay off: retry.ts owns retrying. Requests go
 * through model-fetch.ts rather than Node's fetch.
 */
export async function createGenAiContentGenerator(auth: AuthConfig, userAgent: string): Promise<ContentGenerator> {
  const { GoogleGenAI } = await import('../../protocol/genai-client.js');
  const httpOptions: { baseUrl?: string; headers: Record<string, string>; fetch: typeof fetch } = {
    headers: { 'User-Agent': userAgent },
    fetch: createModelFetch(),
  };
  if (auth.baseUrl) httpOptions.baseUrl = auth.baseUrl;
  const ai =
    auth.kind === 'vertex-ai'
      ? new GoogleGenAI({
          vertexai: true,
          apiKey: auth.apiKey,
          project: auth.project,
          location: auth.location,
          httpOptions,
        })
      : new GoogleGenAI({ vertexai: false, apiKey: auth.apiKey, httpOptions });
  const endpoint =
    auth.baseUrl ??
    (auth.kind === 'vertex-ai'
      ? `https://${auth.location ?? 'us-central1'}-aiplatform.googleapis.com`
      : 'https://generativelanguage.googleapis.com');
  return {
    endpoint,
    generateContentStream: (req) => ai.models.generateContentStream(req),
    generateContent: (req) => ai.models.generateContent(req),
    countTokens: (req) => ai.models.countTokens(req),
  };
}
