/**
 * AWS's SigV4 test suite (header signing), vendored from awslabs/aws-c-auth
 * tests/aws-signing-test-suite/v4 (Apache-2.0, LICENSE and NOTICE beside it) under
 * test/fixtures/webhooks/aws-sig-v4-test-suite: each case's request.txt parsed into a request, with its
 * context (credentials, region, service, time, whether the body hash is sent as x-amz-content-sha256,
 * session token, path normalisation) and the expected canonical request, string to sign and signature.
 * `suiteCases(files)` takes the files as { path: text } so that tests load them with Vite's import.meta.glob
 * (the same cases under Node and workerd: sigv4-suite-files.ts) and tools with node:fs.
 */

export interface SuiteCase {
  name: string;
  method: string;
  /** the path and query exactly as in request.txt */
  target: string;
  host: string;
  headers: [string, string][];
  body: string;
  accessKeyId: string;
  secretAccessKey: string;
  token?: string;
  /** token sent but not signed (omit_session_token) */
  omitToken: boolean;
  signBody: boolean;
  normalize: boolean;
  region: string;
  service: string;
  amzDate: string;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

function parseRequest(text: string): { method: string; target: string; headers: [string, string][]; body: string } {
  const blank = text.indexOf('\n\n');
  const head = (blank < 0 ? text : text.slice(0, blank)).split('\n');
  const first = head.shift()!;
  const method = first.slice(0, first.indexOf(' '));
  const target = first.slice(method.length + 1, first.lastIndexOf(' HTTP/'));
  const headers: [string, string][] = [];
  for (const line of head) {
    if (!line) continue;
    if (/^\s/.test(line) && headers.length)
      headers[headers.length - 1]![1] += `\n${line}`; // folded continuation
    else headers.push([line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]);
  }
  return { method, target, headers, body: blank < 0 ? '' : text.slice(blank + 2) };
}

export function suiteCases(files: Record<string, string>): SuiteCase[] {
  const byCase = new Map<string, Record<string, string>>();
  for (const [path, text] of Object.entries(files)) {
    const [, name, file] = /aws-sig-v4-test-suite\/([^/]+)\/([^/]+)$/.exec(path)!;
    byCase.set(name!, { ...byCase.get(name!), [file!]: text });
  }
  return [...byCase]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, f]) => {
      const ctx = JSON.parse(f['context.json']!) as {
        credentials: { access_key_id: string; secret_access_key: string; token?: string };
        region: string;
        service: string;
        timestamp: string;
        sign_body: boolean;
        normalize: boolean;
        omit_session_token?: boolean;
      };
      const req = parseRequest(f['request.txt']!);
      const host = req.headers.find(([k]) => k.toLowerCase() === 'host')![1].trim();
      return {
        name,
        ...req,
        host,
        accessKeyId: ctx.credentials.access_key_id,
        secretAccessKey: ctx.credentials.secret_access_key,
        token: ctx.credentials.token,
        omitToken: ctx.omit_session_token === true,
        signBody: ctx.sign_body,
        normalize: ctx.normalize,
        region: ctx.region,
        service: ctx.service,
        amzDate: ctx.timestamp.replace(/[-:]/g, ''),
        canonicalRequest: f['header-canonical-request.txt']!,
        stringToSign: f['header-string-to-sign.txt']!,
        signature: f['header-signature.txt']!.trim(),
      };
    });
}
