import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { takeAnalysisSlot } from './analysis-slots';

describe('takeAnalysisSlot', () => {
  it('admits up to the limit per user, refuses the next with 429 and Retry-After, and frees a slot once', () => {
    const a1 = takeAnalysisSlot('slot-user-a', 2);
    const a2 = takeAnalysisSlot('slot-user-a', 2);
    let refused: unknown;
    try {
      takeAnalysisSlot('slot-user-a', 2);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(429);
    expect((refused as AppError).headers).toEqual({ 'Retry-After': '5' });
    // Another user is not affected.
    const b = takeAnalysisSlot('slot-user-b', 2);
    a1();
    a1(); // a second release gives back nothing more
    const a3 = takeAnalysisSlot('slot-user-a', 2);
    expect(() => takeAnalysisSlot('slot-user-a', 2)).toThrow(AppError);
    for (const give of [a2, a3, b]) give();
  });
});
