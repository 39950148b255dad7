/**
 * Environment variable names that look like they hold a secret (tokens, keys, passwords, sessions).
 * The host keeps them from third-party servers; the sandboxed shell keeps them from commands.
 */
export const SECRET_ENV_NAME =
  /(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|API_?KEY|(^|_)KEY($|_)|KEYS?$|AUTH|CREDENTIAL|PRIVATE|CERT|COOKIE|SESSION|SIGNATURE|_PAT($|_))/i;
