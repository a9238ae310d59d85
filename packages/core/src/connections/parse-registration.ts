import { RequestValidationError } from '../errors/validation-error';
import { ConnectionStringError, type ParsedConnectionString, parseConnectionString, redactConnectionString } from './connection-string';

/**
 * Parses a connection string from a request body, turning a bad one into the spec's 422
 * validation body at `body.connection_string`, with the password masked in `input`.
 */
export function parseConnectionStringInput(raw: string): ParsedConnectionString {
  try {
    return parseConnectionString(raw);
  } catch (error) {
    if (!(error instanceof ConnectionStringError)) throw error;
    throw new RequestValidationError([
      {
        loc: ['body', 'connection_string'],
        msg: `Value error, ${error.message}`,
        type: 'value_error',
        input: redactConnectionString(raw),
        ctx: { error: error.message },
      },
    ]);
  }
}
