// A browser without JavaScript over plain HTTP: its cookies (the session's, the form token's), a
// User-Agent, the Fetch Metadata a current browser sends for its own page's links and form posts
// (Sec-Fetch-Site: same-origin; server/csrfProtection.ts refuses a post without it) and the address the trusted
// proxy reports (x-forwarded-for). `baseUrl` may be changed between requests to reach another web
// process with the same cookies, as a load balancer would.
export interface PlainBrowser {
  request(path: string, init?: { method?: string; form?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  post(path: string, form: Record<string, string>): Promise<Response>;
  setIp(value: string): void;
  setBaseUrl(value: string): void;
}

export function plainBrowser(baseUrl: string, userAgent: string, ip = '10.0.0.1'): PlainBrowser {
  const cookies = new Map<string, string>();
  let base = baseUrl;
  async function request(path: string, init: { method?: string; form?: Record<string, string>; signal?: AbortSignal } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        'user-agent': userAgent,
        // The product trusts the loopback proxy: this is the visitor's address as far as it knows.
        'x-forwarded-for': ip,
        'sec-fetch-site': 'same-origin',
        ...(cookies.size > 0 ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      signal: init.signal,
    });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0]!;
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      // A cleared cookie comes back empty (with an expiry in the past).
      if (value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
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
