/**
 * The little of XML-RPC the PyPI changelog needs: a call with int parameters, and an answer's value
 * (`int`/`i4`, `string` or bare text, `boolean`, `double`, `nil`, `array`, `struct`) or its fault string.
 * A hand parser over the answer's tags (Workers have no DOMParser); text is entity-decoded.
 */
export function xmlRpcCall(method: string, params: number[]): string {
  const ps = params.map((p) => `<param><value><int>${Math.trunc(p)}</int></value></param>`).join('');
  return `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${ps}</params></methodCall>`;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

class Reader {
  private i = 0;
  private readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  /** The next tag (skipping text and the XML declaration): its name and whether it closes or is empty. */
  tag(): { name: string; close: boolean; empty: boolean; textBefore: string } {
    const start = this.i;
    for (;;) {
      const lt = this.s.indexOf('<', this.i);
      if (lt < 0) throw new Error('XML-RPC answer ends early');
      const gt = this.s.indexOf('>', lt);
      const body = this.s.slice(lt + 1, gt);
      this.i = gt + 1;
      if (body.startsWith('?') || body.startsWith('!')) continue;
      const close = body.startsWith('/');
      const empty = body.endsWith('/');
      const name = body.replace(/^\//, '').replace(/\/$/, '').trim().split(/\s/)[0]!;
      return { name, close, empty, textBefore: this.s.slice(start, lt).replace(/<\?[^>]*>/g, '') };
    }
  }
  expect(name: string, close = false): void {
    const t = this.tag();
    if (t.name !== name || t.close !== close) throw new Error(`XML-RPC: expected <${close ? '/' : ''}${name}>`);
  }
  /** A `<value>` whose opening tag was just read. */
  value(): unknown {
    const t = this.tag();
    if (t.close && t.name === 'value') return decode(t.textBefore); // bare text is a string
    if (t.empty) {
      this.expect('value', true);
      return t.name === 'nil' ? null : t.name === 'string' ? '' : null;
    }
    let v: unknown;
    if (t.name === 'array') v = this.array();
    else if (t.name === 'struct') v = this.struct();
    else {
      const end = this.tag();
      const text = decode(end.textBefore);
      if (t.name === 'int' || t.name === 'i4' || t.name === 'i8' || t.name === 'double') v = Number(text);
      else if (t.name === 'boolean') v = text.trim() === '1';
      else v = text;
    }
    this.expect('value', true);
    return v;
  }
  private array(): unknown[] {
    const out: unknown[] = [];
    const data = this.tag();
    if (data.empty) {
      this.expect('array', true);
      return out;
    }
    for (;;) {
      const t = this.tag();
      if (t.close) break; // </data>
      out.push(this.value());
    }
    this.expect('array', true);
    return out;
  }
  private struct(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      const t = this.tag(); // <member> or </struct>
      if (t.close) return out;
      this.expect('name');
      const key = decode(this.tag().textBefore);
      this.expect('value');
      out[key] = this.value();
      this.expect('member', true);
    }
  }
}

/** The answer of a call: its value, or the fault's `faultString`. */
export function parseXmlRpc(xml: string): { value?: unknown; fault?: string } {
  const r = new Reader(xml);
  try {
    r.expect('methodResponse');
    const t = r.tag();
    if (t.name === 'fault') {
      r.expect('value');
      const f = r.value() as Record<string, unknown>;
      return { fault: String(f?.faultString ?? 'fault') };
    }
    r.expect('param');
    r.expect('value');
    return { value: r.value() };
  } catch (err) {
    return { fault: `malformed answer (${(err as Error).message})` };
  }
}
