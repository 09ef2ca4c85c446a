/** Shown after `connector-cli set-auth --help`: one example per authorization type (docs/connector-auth.md). */
export const setAuthHelp = `
Checks, in this order, before anything is sent: required options; -au and -at values;
oAuth2AuthorizationCode only with -au browser; -b against -e; config.supportedAuth of the
project's package.json (when [project] holds one); the auth data file (JSON, or YAML for
.yaml/.yml; unknown fields are errors), merged over config.authenticationConfig.<type> of that
package.json when it sets one (the file wins, key by key). Then
PUT {base}/api/v1/environment/{env}/connectors/{id}/auth/{kind}.

Usages: browser (the editor in a browser, or the SDK); server (output generation: PDF, PNG, GIF).

Examples: (each command is followed by its data file)

  staticKey (browser and server): a header added to every request
    connector-cli set-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx \\
      -au server -at staticKey --auth-data-file static.json
    {"key": "X-Api-Key", "value": "<secret>"}

  oAuth2ClientCredentials (browser and server)
    connector-cli set-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx \\
      -au server -at oAuth2ClientCredentials --auth-data-file client-credentials.json
    {"clientId": "cli", "clientSecret": "<secret>", "scope": "read",
     "tokenEndpoint": "https://login.example.com/oauth/token"}

  oAuth2AuthorizationCode (browser only: each user signs in)
    connector-cli set-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx \\
      -au browser -at oAuth2AuthorizationCode --auth-data-file authorization-code.yaml
    clientId: cli
    clientSecret: <secret>
    scope: read
    authorizationServerMetadata:
      authorization_endpoint: https://login.example.com/authorize
      token_endpoint: https://login.example.com/oauth/token
      token_endpoint_auth_methods_supported: [client_secret_basic]
    specCustomization:            # optional
      codeParameterName: code     # default code
      requestContentType: formUrlEncoded   # or applicationJson

  oAuth2ResourceOwnerPassword (browser and server)
    connector-cli set-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx \\
      -au browser -at oAuth2ResourceOwnerPassword --auth-data-file password.json
    {"clientId": "cli", "clientSecret": "<secret>", "username": "integration",
     "password": "<secret>", "bodyFormat": "formUrlEncoded",
     "tokenEndpoint": "https://login.example.com/oauth/token",
     "authorizationServerMetadata": {"token_endpoint_auth_methods_supported": ["client_secret_post"]}}
    (optional metadata: its first entry says how the client authenticates; default client_secret_basic)

  oAuth2JwtBearer (browser and server)
    connector-cli set-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx \\
      -au server -at oAuth2JwtBearer --auth-data-file jwt-bearer.json
    {"tokenEndpoint": "https://login.example.com/oauth/token",
     "signatureConfig": {"algorithm": "RS256", "privateKey": "-----BEGIN PRIVATE KEY-----\\n..."},
     "jwtPayload": {"iss": "cli", "sub": "integration", "aud": "https://login.example.com", "tenant": 42},
     "jwtTokenParamName": "assertion", "requestBodyParams": {"scope": "read", "version": 2}}
    (values are strings, numbers or booleans: claims keep their type, body parameters go as text)

  Defaults from package.json: "config": {"authenticationConfig": {"oAuth2ResourceOwnerPassword":
    {"bodyFormat": "applicationJson"}}} fills what the data file leaves out; for oAuth2JwtBearer its
    jwtPayload and requestBodyParams may be lists [{"key": "aud", "value": "..."}, {"key": "sub", "required": true}].

  Local development server (names under .localhost reach 127.0.0.1):
    connector-cli set-auth ./my-connector --connectorId <id> -e acme-prod \\
      -b http://acme-prod.localhost:8080/grafx -au browser -at staticKey --auth-data-file static.json

Secret fields are never printed; --dry-run shows the request with them masked.
Exit status: 0 done, 1 the platform refused or could not be reached, 2 usage error (nothing sent).
`;
