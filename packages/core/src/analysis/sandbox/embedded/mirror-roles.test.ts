import { describe, expect, it } from 'vitest';
import { RoleNameLocks } from './mirror-roles';

describe('RoleNameLocks', () => {
  it('lets one holder per name at a time, and names apart run side by side', async () => {
    const locks = new RoleNameLocks();
    const order: string[] = [];
    const first = await locks.acquire(['anon', 'service_role']);
    const apart = await locks.acquire(['other']); // not blocked
    const second = locks.acquire(['service_role']).then((release) => {
      order.push('second');
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('first done');
    first();
    (await second)();
    apart();
    expect(order).toEqual(['first done', 'second']);
  });
});
