// A failed upstream call: which upstream, the HTTP status it answered (0 when it could not be reached or the
// request's deadline had passed) and its body. Thrown by the typed clients (server/upstream/http.ts) and
// read by whoever decides what a failure means, such as the creation worker (workers/customerCreationJob.ts).
export class UpstreamError extends Error {
  constructor(
    readonly upstream: string,
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
