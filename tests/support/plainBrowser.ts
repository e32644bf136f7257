// A browser without JavaScript over plain HTTP: one session cookie, a User-Agent and the address the
// trusted proxy reports (x-forwarded-for). `baseUrl` may be changed between requests to reach another
// web process with the same cookie, as a load balancer would.
export interface PlainBrowser {
  request(path: string, init?: { method?: string; form?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  post(path: string, form: Record<string, string>): Promise<Response>;
  setIp(value: string): void;
  setBaseUrl(value: string): void;
}

export function plainBrowser(baseUrl: string, userAgent: string, ip = '10.0.0.1'): PlainBrowser {
  let cookie = '';
  let base = baseUrl;
  async function request(path: string, init: { method?: string; form?: Record<string, string>; signal?: AbortSignal } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        'user-agent': userAgent,
        // The product trusts the loopback proxy: this is the visitor's address as far as it knows.
        'x-forwarded-for': ip,
        ...(cookie ? { cookie } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      signal: init.signal,
    });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    return res;
  }
  return {
    request,
    post: (path, form) => request(path, { method: 'POST', form }),
    setIp(value) {
      ip = value;
    },
    setBaseUrl(value) {
      base = value;
    },
  };
}
