import { SandboxImageCache, sandboxCacheOptions } from '@dbops/core/sandbox/sandbox-cache';
import { memoPer } from '@dbops/core/util/memo-per';
import type { Container } from '../container';

/** The analysis sandbox's clone cache of this process, bounded as the settings say (`DBOPS_SANDBOX_CACHE_*`). */
export const getSandboxCache = memoPer<Container, SandboxImageCache>((c) => new SandboxImageCache(sandboxCacheOptions(c.settings.sandbox)));
