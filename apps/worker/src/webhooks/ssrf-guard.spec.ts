import { isAllowedTarget, parseAllowList } from './ssrf-guard';

describe('WEBHOOK_ALLOWED_IPS rules', () => {
  it('reads ip, ip:port, cidr, cidr:port and bracketed IPv6', () => {
    const rules = parseAllowList(' 127.0.0.1:8080, 10.0.0.0/8:9000 ,192.168.1.5, [::1]:7000, fd00::/8 ');
    expect(rules.map((r) => [r.range[0].toString(), r.range[1], r.ports])).toEqual([
      ['127.0.0.1', 32, [8080]],
      ['10.0.0.0', 8, [9000]],
      ['192.168.1.5', 32, [80, 443]],
      ['::1', 128, [7000]],
      ['fd00::', 8, [80, 443]],
    ]);
  });

  it('allows a private address only on the ports its rule names', () => {
    const rules = parseAllowList('127.0.0.1:8080,10.0.0.0/8:9000,192.168.1.5,[::1]:7000');
    const cases: Array<[string, number, boolean]> = [
      ['127.0.0.1', 8080, true],
      ['127.0.0.1', 6379, false],
      ['127.0.0.2', 8080, false],
      ['::ffff:127.0.0.1', 8080, true],
      ['10.20.30.40', 9000, true],
      ['10.20.30.40', 80, false],
      ['192.168.1.5', 80, true],
      ['192.168.1.5', 443, true],
      ['192.168.1.5', 5432, false],
      ['::1', 7000, true],
      ['::1', 8080, false],
      ['169.254.169.254', 80, false],
      ['8.8.8.8', 6379, true], // public: not the allow-list's business
    ];
    for (const [ip, port, want] of cases)
      expect({ ip, port, ok: isAllowedTarget(ip, port, rules) }).toEqual({ ip, port, ok: want });
  });

  it('refuses entries it cannot read, naming them', () => {
    for (const bad of ['localhost', '127.0.0.1:0', '127.0.0.1:70000', '300.1.1.1', '10.0.0.0/40:80', '[::1'])
      expect(() => parseAllowList(bad)).toThrow(/WEBHOOK_ALLOWED_IPS/);
  });
});
