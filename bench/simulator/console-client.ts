/** A console session as a script holds it: log in once, then call the API with the token. */
import { API_PATHS, type Envelope, type FieldError } from '@campus/contract';
import { createHash } from 'node:crypto';

/** A call the console answered with another code than 200. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: Envelope<{ errors?: FieldError[] } | null>,
    what: string,
  ) {
    const fields = envelope.data?.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    super(`${what} answered ${envelope.code}: ${envelope.message}${fields ? ` (${fields})` : ''}`);
  }

  /** Whether the answer names a field error on `path`. */
  hasFieldError(path: string): boolean {
    return Boolean(this.envelope.data?.errors?.some((e) => e.path === path));
  }
}

export interface SearchPage<T> {
  items: T[];
  total: number;
}

export class ConsoleClient {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  /** Logs in through the image code (the answer must be known: CAPTCHA_FIXED_CODE) and Login_web. */
  static async login(base: string, userName: string, password: string, captchaCode: string): Promise<ConsoleClient> {
    const captcha = await requestJson<{ vcId: string }>(`${base}${API_PATHS.captcha}`);
    const answer = await requestJson<{ Token: string }>(`${base}${API_PATHS.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName, password: createHash('md5').update(password).digest('hex'), vcId: captcha.vcId, vcCode: captchaCode }),
    });
    return new ConsoleClient(base, answer.Token);
  }

  /** POST with a JSON body (GET without one); answers the envelope's data, throws on any other code. */
  call<T>(path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return requestJson<T>(`${this.base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** Every row of a family's Search under `filters`, page by page (200 at a time). */
  async searchAll<T>(family: string, view: string, filters: Record<string, unknown> = {}, limit = Number.MAX_SAFE_INTEGER): Promise<T[]> {
    const rows: T[] = [];
    for (let pageIndex = 1; rows.length < limit; pageIndex += 1) {
      const page = await this.call<SearchPage<T>>(`/api/${family}/Search?view=${view}`, { pageIndex, pageSize: 200, ...filters });
      rows.push(...page.items);
      if (page.items.length < 200) break;
    }
    return rows.slice(0, limit);
  }
}

/** A call answering the envelope; a 503 (the server shedding load) is retried a few times. */
export async function requestJson<T>(url: string, init?: RequestInit): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, init);
    if (response.status === 503 && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
      continue;
    }
    const body = (await response.json()) as Envelope<T>;
    if (body.code !== 200) throw new ApiError(response.status, body as Envelope<{ errors?: FieldError[] } | null>, `${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    return body.data;
  }
}
