/**
 * A value made on first use and kept: for optional heavy modules (the S3 SDK, sharp, nodemailer,
 * ioredis) that most starts never need, so loading them does not count against cold start.
 */
export function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= make().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
