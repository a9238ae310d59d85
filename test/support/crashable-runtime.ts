// A local runtime in a process of its own, on on-disk state under DBOPS_HOME, for crash tests.
// It prints "ready <origin>" once listening. With CRASH_AFTER_STAGED_FILES=n it kills itself
// (SIGKILL: no cleanup, no flush) as soon as n files of any upload batch are fully staged, which
// is the middle of an ingestion.
import { startLocalRuntime } from '@dbops/local';

const runtime = await startLocalRuntime({ port: 0, consoleDir: null });
process.stdout.write(`ready ${runtime.origin}\n`);

const crashAfter = Number(process.env.CRASH_AFTER_STAGED_FILES ?? '0');
if (crashAfter > 0) {
  const timer = setInterval(async () => {
    const res = await runtime.container.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_batch_files WHERE staged_chunks IS NOT NULL');
    if (res.rows[0]!.n >= crashAfter) {
      clearInterval(timer);
      process.kill(process.pid, 'SIGKILL');
    }
  }, 10);
}
process.on('SIGTERM', () => {
  void runtime.close().then(() => process.exit(0));
});
