/** The environment a bench gives a host run: its own home, a fake key and the scripted endpoint; not CI. */
export function benchEnv(home, baseUrl) {
  const env = {
    ...process.env,
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: 'bench-key',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    NO_COLOR: '1',
  };
  delete env.CI;
  return env;
}
