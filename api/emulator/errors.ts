// Errors of the payment emulator, shaped and worded like Stripe's API errors so that the real
// `stripe` SDK turns them into the same classes (StripeInvalidRequestError, …) as in production.

export type StripeErrorType =
  'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error';

export interface StripeErrorBody {
  error: { type: StripeErrorType; message: string; code?: string; param?: string };
}

export class StripeApiError extends Error {
  override name = 'StripeApiError';
  readonly status: number;
  readonly type: StripeErrorType;
  readonly code: string | undefined;
  readonly param: string | undefined;

  constructor(
    status: number,
    message: string,
    details: { type?: StripeErrorType; code?: string; param?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.type = details.type ?? 'invalid_request_error';
    this.code = details.code;
    this.param = details.param;
  }

  toBody(): StripeErrorBody {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code === undefined ? {} : { code: this.code }),
        ...(this.param === undefined ? {} : { param: this.param }),
      },
    };
  }
}

/** 400 invalid_request_error, the common case. */
export const invalidRequest = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, message, {
    ...(param === undefined ? {} : { param }),
    ...(code === undefined ? {} : { code }),
  });

/**
 * resource_missing: "No such checkout.session: 'cs_test_…'". Stripe answers 404 when the object
 * of the URL is missing, 400 when a parameter names a missing object (a coupon in `discounts`).
 */
export const noSuch = (what: string, id: string, param: string, status: 400 | 404 = 404) =>
  new StripeApiError(status, `No such ${what}: '${id}'`, { code: 'resource_missing', param });
