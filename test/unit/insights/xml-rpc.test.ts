/** The XML-RPC reader of the PyPI changelog feed (src/insights/feeds/xml-rpc.ts): values, faults, malformed answers. */
import { describe, expect, it } from 'vitest';
import { parseXmlRpc, xmlRpcCall } from '../../../src/insights/feeds/xml-rpc.ts';

const answer = (value: string) =>
  `<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value>${value}</value>\n</param>\n</params>\n</methodResponse>\n`;

describe('XML-RPC', () => {
  it('writes a call with int parameters', () => {
    expect(xmlRpcCall('changelog_since_serial', [42])).toBe(
      '<?xml version="1.0"?><methodCall><methodName>changelog_since_serial</methodName><params><param><value><int>42</int></value></param></params></methodCall>',
    );
  });

  it.each([
    ['<int>7</int>', 7],
    ['<i4>-3</i4>', -3],
    ['<string>a &amp; b &lt;c&gt;</string>', 'a & b <c>'],
    ['bare text', 'bare text'],
    ['<boolean>1</boolean>', true],
    ['<nil/>', null],
    ['<array><data></data></array>', []],
    ['<array><data/></array>', []],
    [
      '<array><data><value><array><data><value><string>Django</string></value><value><string>5.0</string></value><value><int>1700000000</int></value><value><string>new release</string></value><value><int>99</int></value></data></array></value></data></array>',
      [['Django', '5.0', 1700000000, 'new release', 99]],
    ],
    ['<struct><member><name>k</name><value><int>1</int></value></member></struct>', { k: 1 }],
  ])('reads %s', (xml, want) => {
    expect(parseXmlRpc(answer(xml))).toEqual({ value: want });
  });

  it('reads a fault', () => {
    const xml = `<?xml version='1.0'?><methodResponse><fault><value><struct><member><name>faultCode</name><value><int>1</int></value></member><member><name>faultString</name><value><string>no such method</string></value></member></struct></value></fault></methodResponse>`;
    expect(parseXmlRpc(xml)).toEqual({ fault: 'no such method' });
  });

  it.each(['', '<html>rate limited</html>', answer('<array><data><value><int>1</int>')])(
    'says a malformed answer is one: %s',
    (xml) => {
      expect(parseXmlRpc(xml).fault).toMatch(/^malformed answer/);
    },
  );
});
