// An MCP server (@modelcontextprotocol/server 2.4.0, 2026-07-28 and stateless 2025-11-25)
// behind the official SDK's bearer middleware (`requireBearerAuth`), for the clients' OAuth
// tests: tokens are checked by RFC 7662 introspection at the tests' authorization server
// (server.py), must be for this server's URL (`expectedResource`, RFC 8707) and carry
// `mcp:read`; the RFC 9728 metadata comes from `oauthMetadataResponse`.
//
//   node protected-ts.mjs ISSUER   → prints "READY http://127.0.0.1:PORT/mcp"
//
// Resources: secret://note (its text names the caller's client id and scopes); tool: echo.
import http from 'node:http';
import {
  McpServer,
  OAuthError,
  OAuthErrorCode,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const issuer = process.argv[2];
if (!issuer) throw new Error('usage: protected-ts.mjs ISSUER');
const asMeta = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();

const verifier = {
  async verifyAccessToken(token) {
    const r = await fetch(asMeta.introspection_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
    });
    const info = await r.json();
    if (!info.active) throw new OAuthError(OAuthErrorCode.InvalidToken, 'inactive token');
    return {
      token,
      clientId: info.client_id,
      scopes: (info.scope ?? '').split(' ').filter(Boolean),
      expiresAt: info.exp,
      resource: info.aud ? new URL(info.aud) : undefined,
    };
  },
};

function factory() {
  const server = new McpServer({ name: 'protected-ts', version: '1.0.0' }, { capabilities: { resources: {} } });
  server.registerResource('note', 'secret://note', { mimeType: 'text/plain' }, async (uri, ctx) => {
    const auth = ctx?.http?.authInfo;
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `secret for ${auth?.clientId} (${auth?.scopes?.join(' ')})` }] };
  });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  return server;
}
const handler = createMcpHandler(factory, { onerror: (e) => process.stderr.write(`protected-ts: ${e.message}\n`) });

const listener = http.createServer();
await new Promise((ok) => listener.listen(0, '127.0.0.1', ok));
const url = new URL(`http://127.0.0.1:${listener.address().port}/mcp`);
const metaOptions = { oauthMetadata: asMeta, resourceServerUrl: url, scopesSupported: ['mcp:read'], dangerouslyAllowInsecureIssuerUrl: true };
const gate = requireBearerAuth({
  verifier,
  requiredScopes: ['mcp:read'],
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(url),
  expectedResource: url,
});

async function serve(request) {
  const meta = oauthMetadataResponse(request, metaOptions);
  if (meta) return meta;
  if (new URL(request.url).pathname !== url.pathname) return new Response('not found', { status: 404 });
  const auth = await gate(request);
  if (auth instanceof Response) return auth;
  return handler.fetch(request, { authInfo: auth });
}

listener.on('request', async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const request = new Request(new URL(req.url, url), { method: req.method, headers: req.headers, body });
    const response = await serve(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const c of response.body) res.write(c);
    res.end();
  } catch (e) {
    process.stderr.write(`protected-ts: ${e.stack}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});
process.stdout.write(`READY ${url.href}\n`);
