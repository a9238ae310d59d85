import { describe, expect, it } from 'vitest';
import { triggerWrites } from './trigger-work';

describe('what a trigger body writes', () => {
  it('counts the INSERT, UPDATE and DELETE statements of a body, not words in comments or strings', () => {
    expect(triggerWrites(`BEGIN NEW.updated_at := now(); RETURN NEW; END`)).toBe(0);
    expect(triggerWrites(`BEGIN INSERT INTO audit (doc_id, what) VALUES (NEW.id, TG_OP); RETURN NULL; END`)).toBe(1);
    expect(
      triggerWrites(`BEGIN
        IF TG_OP = 'INSERT' THEN UPDATE users SET n = n + 1 WHERE id = NEW.user_id;
        ELSE UPDATE public."Users" u SET n = n - 1 WHERE u.id = OLD.user_id; END IF;
        -- DELETE FROM old_rows is no longer needed
        RAISE NOTICE 'insert into nowhere';
        DELETE FROM pending WHERE id = OLD.id;
        RETURN NULL; END`),
    ).toBe(3);
  });
});
